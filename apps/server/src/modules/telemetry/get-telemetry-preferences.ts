import type { TTelemetryPreferences } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/** The user's analytics choice; a user who never chose is opted in (decision 021). */
export async function getTelemetryPreferences(
  db: Queryable,
  userId: string,
): Promise<TTelemetryPreferences> {
  const { rows } = await db.query<{ analytics_opt_out: boolean }>(
    "SELECT analytics_opt_out FROM telemetry_preferences WHERE user_id = $1",
    [userId],
  );
  return { analyticsOptOut: rows[0]?.analytics_opt_out ?? false };
}
