import type { Queryable } from "../../db/client";
import { ACTIVE_STATUSES_SQL } from "./run-store";

/**
 * The sessions where a run the user started is still going, in any workspace: what has to be
 * stopped before the user's account (and with it their runs) is deleted.
 */
export async function listActiveRunSessions(db: Queryable, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ session_id: string }>(
    `SELECT DISTINCT session_id FROM runs WHERE user_id = $1 AND status IN ${ACTIVE_STATUSES_SQL}`,
    [userId],
  );
  return rows.map((row) => row.session_id);
}
