import {
  BRANCH_ERROR_CODES,
  ERROR_CODES,
  type TChatResponse,
  type TEditMessageRequest,
} from "@cohort/contracts";
import { isUuid } from "../../db/uuid";
import type { Principal } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { findSessionFor } from "../sessions/find-session";
import type { EngineDeps } from "./run-context";
import type { RunControl } from "./run-control";
import type { RunEventLogDeps } from "./run-events";
import { checkCanStart, launchRun, readForStart } from "./start-run";

/**
 * POST /api/sessions/{id}/messages/{messageId}/edit (decision 070): the edited text is a new
 * version of the message — a sibling that follows the same run, so it sees the history the
 * original had and nothing after it — and starts its own run. The original and its runs
 * stay as the other branch; the new one is shown. Same checks and planning hold as a message.
 */
export async function editMessage(
  deps: EngineDeps & RunEventLogDeps,
  control: RunControl,
  principal: Principal,
  target: { sessionId: string; messageId: string },
  request: TEditMessageRequest,
): Promise<TChatResponse> {
  const session = await findSessionFor(deps.db, principal.user.id, target.sessionId, {
    least: "member",
  });
  const reads = await readForStart(deps, principal, session.id);
  const original = isUuid(target.messageId)
    ? reads.tree.messages.find((m) => m.id === target.messageId)
    : undefined;
  if (!original) throw new AppError(ERROR_CODES.notFound, 404, "This message does not exist.");
  if (original.role !== "user") {
    throw new AppError(
      BRANCH_ERROR_CODES.notAUserMessage,
      400,
      "Only your own messages can be edited. Regenerate an answer instead.",
    );
  }
  checkCanStart(session, reads, "edit a message");
  return launchRun(deps, control, session, reads, {
    content: request.message,
    stored: null,
    parentRunId: original.parent_run_id ?? null,
  });
}

/**
 * Puts a message's version (or an answer's) on screen (decision 070): it becomes the latest
 * shown of its group, so the conversation — and what later turns see — follows it. Answers
 * with the time stored.
 */
export async function showBranch(
  deps: EngineDeps,
  principal: Principal,
  target: { sessionId: string; kind: "message" | "run"; id: string },
): Promise<{ shown_at: string }> {
  const session = await findSessionFor(deps.db, principal.user.id, target.sessionId, {
    least: "member",
  });
  const sql =
    target.kind === "message"
      ? `UPDATE session_messages SET shown_at = clock_timestamp()
         WHERE id = $1 AND session_id = $2 AND role = 'user' RETURNING shown_at`
      : "UPDATE runs SET shown_at = clock_timestamp() WHERE id = $1 AND session_id = $2 RETURNING shown_at";
  const { rows } = isUuid(target.id)
    ? await deps.db.query<{ shown_at: Date | string }>(sql, [target.id, session.id])
    : { rows: [] };
  const row = rows[0];
  if (!row) {
    throw new AppError(
      ERROR_CODES.notFound,
      404,
      target.kind === "message" ? "This message does not exist." : "This run does not exist.",
    );
  }
  return { shown_at: new Date(row.shown_at).toISOString() };
}
