import { ERROR_CODES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { type OwnedSession, SESSION_COLUMNS, type SessionRow, toOwnedSession } from "./session-row";

export function sessionNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "This session does not exist.");
}

/**
 * The session if `userId` owns it. Anyone else gets the same 404 as for a session that does
 * not exist, so ids cannot be probed.
 */
export async function findOwnedSession(
  db: Queryable,
  userId: string,
  sessionId: string,
  options: { forUpdate?: boolean } = {},
): Promise<OwnedSession> {
  if (!isUuid(sessionId)) throw sessionNotFound();
  const { rows } = await db.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = $1 AND user_id = $2${options.forUpdate ? " FOR UPDATE" : ""}`,
    [sessionId, userId],
  );
  const row = rows[0];
  if (!row) throw sessionNotFound();
  return toOwnedSession(row);
}

/** The session whatever its owner (the run engine, which checked ownership at the start). */
export async function getSession(db: Queryable, sessionId: string): Promise<OwnedSession | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = $1`,
    [sessionId],
  );
  return rows[0] ? toOwnedSession(rows[0]) : null;
}
