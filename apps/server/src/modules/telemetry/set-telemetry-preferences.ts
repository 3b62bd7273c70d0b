import type { TTelemetryPreferences } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

export async function setTelemetryPreferences(
  db: Queryable,
  userId: string,
  preferences: TTelemetryPreferences,
): Promise<TTelemetryPreferences> {
  await db.query(
    `INSERT INTO telemetry_preferences (user_id, analytics_opt_out) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE
       SET analytics_opt_out = EXCLUDED.analytics_opt_out, updated_at = clock_timestamp()`,
    [userId, preferences.analyticsOptOut],
  );
  return preferences;
}
