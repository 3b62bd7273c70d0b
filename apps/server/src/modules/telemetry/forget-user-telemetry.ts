import type { Queryable } from "../../db/client";

/**
 * A deleted account's telemetry (decision 021 keeps it for a retention period): its log lines
 * go, and its analytics rows stay only as anonymous counts, without the user's id or address.
 */
export async function forgetUserTelemetry(db: Queryable, userId: string): Promise<void> {
  await db.query("DELETE FROM telemetry_logs WHERE user_id = $1", [userId]);
  await db.query("UPDATE analytics_page_views SET user_id = NULL, ip = NULL WHERE user_id = $1", [
    userId,
  ]);
  await db.query("UPDATE analytics_events SET user_id = NULL, ip = NULL WHERE user_id = $1", [
    userId,
  ]);
  await db.query("UPDATE analytics_performance SET user_id = NULL WHERE user_id = $1", [userId]);
  await db.query("UPDATE analytics_session_ends SET user_id = NULL WHERE user_id = $1", [userId]);
}
