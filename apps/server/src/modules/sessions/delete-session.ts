import type { Queryable } from "../../db/client";
import { sessionNotFound } from "./find-session";

/**
 * Deletes the session with its messages, runs and events (foreign keys cascade); the caller
 * has checked that the user may (`requireSessionDeletable`).
 */
export async function deleteSession(db: Queryable, sessionId: string) {
  const { rowCount } = await db.query("DELETE FROM sessions WHERE id = $1", [sessionId]);
  if (rowCount === 0) throw sessionNotFound();
}
