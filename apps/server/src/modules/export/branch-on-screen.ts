import {
  type BranchMessageLike,
  type BranchRunLike,
  conversationPath,
  type TChatMessage,
} from "@cohort/contracts";

/**
 * The branch on screen of a conversation (decision 070): what the Markdown and PDF exports
 * and a session's share link show. The JSON export keeps every branch. A conversation from
 * before branches (no user message says which run it follows) is one branch: kept whole.
 */
export function branchOnScreen<
  M extends TChatMessage & BranchMessageLike,
  R extends BranchRunLike & { result_message_id: string | null },
>(messages: readonly M[], runs: readonly R[]): { messages: M[]; runs: R[] } {
  if (messages.every((m) => m.role !== "user" || m.parent_run_id === undefined)) {
    return { messages: [...messages], runs: [...runs] };
  }
  const path = conversationPath(messages, runs);
  const keptRuns = new Set(path.flatMap((turn) => (turn.run ? [turn.run.id] : [])));
  const keptMessages = new Set(
    path.flatMap((turn) => [
      turn.message.id,
      ...(turn.run?.result_message_id ? [turn.run.result_message_id] : []),
    ]),
  );
  return {
    messages: messages.filter((m) => keptMessages.has(m.id)),
    runs: runs.filter((r) => keptRuns.has(r.id)),
  };
}
