import type { FastifyBaseLogger } from "fastify";
import { type Sweeper, startPeriodicSweep } from "../../platform/periodic-sweep";
import type { CreditsDeps } from "./credits-deps";
import { releaseHold } from "./release-hold";

const BATCH = 500;

/**
 * Releases holds left open past their expiry (a crashed or lost call). Safe to run on every
 * instance at once: each release re-checks the hold under its row lock.
 */
export async function sweepExpiredHolds(deps: CreditsDeps): Promise<number> {
  let released = 0;
  for (;;) {
    const { rows } = await deps.db.query<{ id: string }>(
      `SELECT id FROM credit_holds WHERE status = 'open' AND expires_at <= now()
       ORDER BY expires_at LIMIT ${BATCH}`,
    );
    for (const row of rows) {
      if (await releaseHold(deps, row.id, "expired")) released++;
    }
    if (rows.length < BATCH) return released;
  }
}

/** Runs the sweep every `intervalMs`; a run still going when the next is due is not doubled. */
export function startHoldSweeper(
  deps: CreditsDeps,
  intervalMs: number,
  log: FastifyBaseLogger,
): Sweeper {
  return startPeriodicSweep(() => sweepExpiredHolds(deps), {
    intervalMs,
    log,
    swept: "expired credit holds released",
    failed: "credit hold sweep failed",
  });
}
