import type { TChatMessage } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { MESSAGE_COLUMNS, type MessageRow, toChatMessage } from "./session-row";

export interface NewMessage {
  sessionId: string;
  role: "user" | "assistant";
  content: string;
  runId: string | null;
  id?: string;
  /** A user message: the run it was sent after (decision 070); absent: none. */
  parentRunId?: string | null;
}

/** Appends a message to the session's conversation and marks the session as changed. */
export async function addMessage(db: Queryable, input: NewMessage): Promise<TChatMessage> {
  const { rows } = await db.query<MessageRow>(
    `WITH touched AS (UPDATE sessions SET updated_at = clock_timestamp() WHERE id = $2)
     INSERT INTO session_messages (id, session_id, role, content, run_id)
     VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5)
     RETURNING ${MESSAGE_COLUMNS}`,
    [input.id ?? null, input.sessionId, input.role, input.content, input.runId],
  );
  return toChatMessage(rows[0] as MessageRow);
}

/**
 * The same append inside another module's statement (decision 026: a run's message, its row
 * and the planning call's hold in one statement): the CTEs `message_touch` and `message`
 * (which returns the stored row), with parameters from `$first`. With `from` (a CTE of that
 * statement, e.g. the credits' `hold`) both write once per row of it: no hold, no message.
 * With `spend` (an SQL expression: a call's charge settled in the same statement, decision
 * 091) the session's spend grows by it in the same update, as `recordSessionSpend` would: a
 * statement may update the session's row only once. `message_touch` returns the spend.
 */
export function addMessagePart(
  first: number,
  input: NewMessage & { id: string },
  from?: string,
  spend?: string,
): { ctes: string; params: unknown[] } {
  const [id, session, role, content, run, parent] = [0, 1, 2, 3, 4, 5].map((i) => `$${first + i}`);
  return {
    ctes: `message_touch AS (
        UPDATE sessions SET updated_at = clock_timestamp()${
          spend ? `, spent_credits = sessions.spent_credits + ${spend}` : ""
        }
        WHERE id = ${session}${from ? ` AND EXISTS (SELECT 1 FROM ${from})` : ""}
        RETURNING sessions.spent_credits
      ), message AS (
        INSERT INTO session_messages (id, session_id, role, content, run_id, parent_run_id)
        SELECT ${id}, ${session}, ${role}, ${content}, ${run}, ${parent}::uuid${from ? ` FROM ${from}` : ""}
        RETURNING ${MESSAGE_COLUMNS}
      )`,
    params: [
      input.id,
      input.sessionId,
      input.role,
      input.content,
      input.runId,
      input.parentRunId ?? null,
    ],
  };
}

/** The message `addMessagePart` stored, from its input and the time the statement gave it. */
export function storedMessage(
  input: NewMessage & { id: string },
  createdAt: Date | string,
): TChatMessage {
  return toChatMessage({
    id: input.id,
    session_id: input.sessionId,
    role: input.role,
    content: input.content,
    run_id: input.runId,
    created_at: createdAt,
    parent_run_id: input.parentRunId ?? null,
    shown_at: createdAt,
  });
}
