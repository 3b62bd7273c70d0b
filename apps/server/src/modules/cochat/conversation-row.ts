import {
  COCHAT_TITLE_MAX,
  ERROR_CODES,
  type TCochatConversation,
  type TCochatStoredMessage,
} from "@cohort/contracts";

import { AppError } from "../../platform/errors";

export function conversationNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "This conversation does not exist.");
}

/** cochat_conversations and cochat_messages as queries return them; only this module reads them. */
export interface ConversationRow {
  id: string;
  title: string;
  model: string;
  message_count: number;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface MessageRow {
  id: string;
  role: "user" | "assistant";
  content: string;
  model: string | null;
  model_name: string | null;
  provider: string | null;
  simulated: boolean | null;
  status: "complete" | "stopped" | "failed";
  error_code: string | null;
  error_message: string | null;
  created_at: Date | string;
}

export const MESSAGE_COLUMNS =
  "id, role, content, model, model_name, provider, simulated, status, error_code, error_message, created_at";

export function toConversation(row: ConversationRow): TCochatConversation {
  return {
    id: row.id,
    title: row.title,
    model: row.model,
    message_count: Number(row.message_count),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export function toStoredMessage(
  row: MessageRow,
  versions: { parentId: string | null; versionIds: string[] },
): TCochatStoredMessage {
  return {
    parent_id: versions.parentId,
    version_ids: versions.versionIds,
    id: row.id,
    role: row.role,
    content: row.content,
    model: row.model,
    model_name: row.model_name,
    provider: row.provider,
    simulated: row.simulated,
    status: row.status,
    error:
      row.error_code && row.error_message
        ? { code: row.error_code, message: row.error_message }
        : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** The first words of the user's first message, on one line. */
export function titleOf(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= COCHAT_TITLE_MAX) return line || "New conversation";
  return `${line.slice(0, COCHAT_TITLE_MAX - 1).trimEnd()}…`;
}
