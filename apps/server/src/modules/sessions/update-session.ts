import type { TSession, TUpdateSessionRequest } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { sessionNotFound } from "./find-session";
import { SESSION_COLUMNS, type SessionRow, toSession } from "./session-row";

type Changes = { [K in keyof TUpdateSessionRequest]: Exclude<TUpdateSessionRequest[K], undefined> };

const JSON_COLUMNS = new Set(["agent_preferences"]);

/** Applies a PATCH (only the fields given); the caller has checked the model choices. */
export async function updateSession(
  db: Queryable,
  userId: string,
  sessionId: string,
  changes: Changes,
): Promise<TSession> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  const sets = entries.map(([column], i) =>
    JSON_COLUMNS.has(column) ? `${column} = $${i + 3}::jsonb` : `${column} = $${i + 3}`,
  );
  const values = entries.map(([column, value]) =>
    JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value,
  );
  const { rows } = await db.query<SessionRow>(
    `UPDATE sessions SET ${[...sets, "updated_at = clock_timestamp()"].join(", ")}
     WHERE id = $1 AND user_id = $2 RETURNING ${SESSION_COLUMNS}`,
    [sessionId, userId, ...values],
  );
  if (!rows[0]) throw sessionNotFound();
  return toSession(rows[0]);
}
