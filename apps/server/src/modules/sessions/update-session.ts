import { hundredthsOf, type TUpdateSessionRequest } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { sessionNotFound } from "./find-session";
import { SESSION_COLUMNS, type SessionRow, type StoredSession, toSession } from "./session-row";

type Changes = { [K in keyof TUpdateSessionRequest]: Exclude<TUpdateSessionRequest[K], undefined> };

const JSON_COLUMNS = new Set(["agent_preferences", "tools"]);

/**
 * Applies a PATCH (only the fields given); the caller has checked the model choices and the
 * user's role in the session's workspace.
 */
export async function updateSession(
  db: Queryable,
  sessionId: string,
  changes: Changes,
): Promise<StoredSession> {
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  const sets = entries.map(([column], i) =>
    JSON_COLUMNS.has(column) ? `${column} = $${i + 2}::jsonb` : `${column} = $${i + 2}`,
  );
  const values = entries.map(([column, value]) => {
    if (value === null) return null;
    if (JSON_COLUMNS.has(column)) return JSON.stringify(value);
    // The wire's decimal budget is stored as hundredths, like every credit amount.
    if (column === "budget_credits") return hundredthsOf(value as number);
    return value;
  });
  const { rows } = await db.query<SessionRow>(
    `UPDATE sessions SET ${[...sets, "updated_at = clock_timestamp()"].join(", ")}
     WHERE id = $1 RETURNING ${SESSION_COLUMNS}`,
    [sessionId, ...values],
  );
  if (!rows[0]) throw sessionNotFound();
  return toSession(rows[0]);
}
