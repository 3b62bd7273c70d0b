import type { TChatMessage } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { MESSAGE_COLUMNS, type MessageRow, toChatMessage } from "./session-row";

/** Appends a message to the session's conversation and marks the session as changed. */
export async function addMessage(
  db: Queryable,
  input: {
    sessionId: string;
    role: "user" | "assistant";
    content: string;
    runId: string | null;
    id?: string;
  },
): Promise<TChatMessage> {
  const { rows } = await db.query<MessageRow>(
    `WITH touched AS (UPDATE sessions SET updated_at = clock_timestamp() WHERE id = $2)
     INSERT INTO session_messages (id, session_id, role, content, run_id)
     VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5)
     RETURNING ${MESSAGE_COLUMNS}`,
    [input.id ?? null, input.sessionId, input.role, input.content, input.runId],
  );
  return toChatMessage(rows[0] as MessageRow);
}
