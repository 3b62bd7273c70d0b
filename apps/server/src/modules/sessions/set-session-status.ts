import {
  canChangeSessionStatus,
  SESSION_ERROR_CODES,
  SESSION_STATUS_TRANSITIONS,
  type TSessionStatus,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import { findSessionFor } from "./find-session";
import {
  SESSION_COLUMNS,
  type SessionRow,
  type StoredSession,
  toSession,
  toStoredSession,
} from "./session-row";

/**
 * Moves a session to `status` when the transition table allows it (409 otherwise; setting
 * the current status again changes nothing). docs/decisions/009-sessions-and-runs.md.
 */
export async function setSessionStatus(
  db: Db,
  userId: string,
  sessionId: string,
  status: TSessionStatus,
): Promise<StoredSession> {
  return db.transaction(async (tx) => {
    const session = await findSessionFor(tx, userId, sessionId, {
      least: "member",
      forUpdate: true,
    });
    if (!canChangeSessionStatus(session.status, status)) {
      const allowed = SESSION_STATUS_TRANSITIONS[session.status];
      throw new AppError(
        SESSION_ERROR_CODES.invalidTransition,
        409,
        `A session that is ${session.status} cannot become ${status}. From ${session.status} it can become: ${allowed.join(", ")}.`,
        { from: session.status, to: status, allowed },
      );
    }
    if (session.status === status) return toStoredSession(session);
    const { rows } = await tx.query<SessionRow>(
      `UPDATE sessions SET status = $2, updated_at = clock_timestamp() WHERE id = $1
       RETURNING ${SESSION_COLUMNS}`,
      [sessionId, status],
    );
    return toSession(rows[0] as SessionRow);
  });
}
