import type { CreditsDeps } from "./credits-deps";
import { releaseHold } from "./release-hold";

/**
 * Gives back every open hold whose reference starts with `prefix` (a run's calls are
 * `run:<runId>:<callId>`): what an interrupted run still held when its instance stopped.
 * Each goes through `releaseHold`, so a hold settled at the same moment is closed once.
 * Returns how many were released here.
 */
export async function releaseHoldsByReference(deps: CreditsDeps, prefix: string): Promise<number> {
  const { rows } = await deps.db.query<{ id: string }>(
    `SELECT id FROM credit_holds
     WHERE status = 'open' AND starts_with(reference, $1)`,
    [prefix],
  );
  let released = 0;
  for (const row of rows) if (await releaseHold(deps, row.id)) released += 1;
  return released;
}
