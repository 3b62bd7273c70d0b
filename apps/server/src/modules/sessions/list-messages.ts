import type { TChatMessage } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { MESSAGE_COLUMNS, type MessageRow, toChatMessage } from "./session-row";

/** The whole conversation, oldest first. */
export async function listMessages(db: Queryable, sessionId: string): Promise<TChatMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM session_messages WHERE session_id = $1
     ORDER BY created_at, id`,
    [sessionId],
  );
  return rows.map(toChatMessage);
}

/**
 * The same conversation as one JSON array, for a statement that reads it beside other things
 * (a run's start rides it on the sign-in, decision 087); `sessionId` is an SQL expression.
 */
export function messagesJson(sessionId: string): string {
  return `(SELECT coalesce(json_agg(m ORDER BY m.created_at, m.id), '[]') FROM
    (SELECT ${MESSAGE_COLUMNS} FROM session_messages WHERE session_id = ${sessionId}) m)`;
}

/** What `messagesJson` read, as `listMessages` gives it. */
export function messagesFromJson(rows: MessageRow[]): TChatMessage[] {
  return rows.map(toChatMessage);
}

/** The newest `limit` messages, oldest first (a model's view of the conversation). */
export async function listRecentMessages(
  db: Queryable,
  sessionId: string,
  limit: number,
): Promise<TChatMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM session_messages WHERE session_id = $1
     ORDER BY created_at DESC, id DESC LIMIT $2`,
    [sessionId, limit],
  );
  return rows.reverse().map(toChatMessage);
}
