import type { FastifyBaseLogger } from "fastify";
import type { Queryable } from "../../db/client";
import { type Sweeper, startPeriodicSweep } from "../../platform/periodic-sweep";

/** Deleted per statement, so one sweep never holds a long lock on a busy table. */
const CHUNK = 5_000;

const TIME_COLUMNS = {
  telemetry_logs: "received_at",
  analytics_page_views: "created_at",
  analytics_events: "created_at",
  analytics_performance: "created_at",
  analytics_session_ends: "created_at",
} as const;

/** Deletes stored logs and analytics older than `retentionDays`; returns how many rows went. */
export async function sweepExpiredTelemetry(
  db: Queryable,
  retentionDays: number,
  now: Date = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000).toISOString();
  let deleted = 0;
  for (const [table, column] of Object.entries(TIME_COLUMNS)) {
    for (;;) {
      const { rowCount } = await db.query(
        `DELETE FROM ${table} WHERE id IN (
           SELECT id FROM ${table} WHERE ${column} < $1 LIMIT ${CHUNK})`,
        [cutoff],
      );
      deleted += rowCount;
      if (rowCount < CHUNK) break;
    }
  }
  // The anonymous senders' daily budgets (one small row per address and day) go with them.
  await db.query("DELETE FROM analytics_anonymous_usage WHERE day < $1::date", [
    cutoff.slice(0, 10),
  ]);
  return deleted;
}

/** Runs the retention sweep every `intervalMs`; a sweep still going is not doubled. */
export function startTelemetrySweeper(
  db: Queryable,
  options: { retentionDays: number; intervalMs: number; log: FastifyBaseLogger },
): Sweeper {
  return startPeriodicSweep(() => sweepExpiredTelemetry(db, options.retentionDays), {
    intervalMs: options.intervalMs,
    log: options.log,
    swept: "expired telemetry deleted",
    failed: "telemetry sweep failed",
  });
}
