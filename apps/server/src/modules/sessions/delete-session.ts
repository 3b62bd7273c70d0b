import type { Queryable } from "../../db/client";
import { sessionNotFound } from "./find-session";

/** Deletes the session with its messages, runs and events (foreign keys cascade). */
export async function deleteSession(db: Queryable, userId: string, sessionId: string) {
  const { rowCount } = await db.query("DELETE FROM sessions WHERE id = $1 AND user_id = $2", [
    sessionId,
    userId,
  ]);
  if (rowCount === 0) throw sessionNotFound();
}
