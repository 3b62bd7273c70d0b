import { z } from "zod";
import { CHAT_MESSAGE_MAX } from "./runs";

/**
 * Branches and forks of a conversation (docs/decisions/070-branches-and-forks.md).
 *
 * A session's messages form a tree: a user message follows the run it was sent after
 * (`parent_run_id`; null for the first turn). Messages with the same parent are versions of
 * one turn (an edit adds one); runs of one message are versions of its answer (a regenerate
 * or a fork adds one). In each group the one shown is the one with the latest `shown_at`;
 * the path from the first turn through the shown versions is the conversation on screen,
 * and the conversation later turns see.
 */

/** What the path needs of a message. */
export interface BranchMessageLike {
  id: string;
  role: "user" | "assistant";
  created_at: string;
  parent_run_id?: string | null | undefined;
  shown_at?: string | undefined;
}

/** What the path needs of a run. */
export interface BranchRunLike {
  id: string;
  message_id: string;
  created_at: string;
  shown_at?: string | undefined;
}

/** One turn on the path: the user's message shown, its versions, its answer's versions. */
export interface PathTurn<M extends BranchMessageLike, R extends BranchRunLike> {
  message: M;
  /** The message's versions (it among them), oldest first: the pager's pages. */
  versions: M[];
  /** The runs of the message shown, oldest first: the answer's pages. */
  runs: R[];
  /** The run shown (null: none yet). */
  run: R | null;
}

const byCreation = <T extends { created_at: string; id: string }>(a: T, b: T) =>
  a.created_at === b.created_at
    ? a.id.localeCompare(b.id)
    : a.created_at.localeCompare(b.created_at);

function shownOf<T extends { created_at: string; id: string; shown_at?: string | undefined }>(
  items: readonly T[],
): T | null {
  let best: T | null = null;
  for (const item of items) {
    if (!best) {
      best = item;
      continue;
    }
    const a = item.shown_at ?? item.created_at;
    const b = best.shown_at ?? best.created_at;
    if (a > b || (a === b && byCreation(item, best) > 0)) best = item;
  }
  return best;
}

/** The conversation on screen: from the first turn, through the shown version of each. */
export function conversationPath<M extends BranchMessageLike, R extends BranchRunLike>(
  messages: readonly M[],
  runs: readonly R[],
): PathTurn<M, R>[] {
  const children = new Map<string, M[]>();
  for (const m of messages) {
    if (m.role !== "user") continue;
    const key = m.parent_run_id ?? "";
    children.set(key, [...(children.get(key) ?? []), m]);
  }
  const runsOf = new Map<string, R[]>();
  for (const r of runs) runsOf.set(r.message_id, [...(runsOf.get(r.message_id) ?? []), r]);
  const path: PathTurn<M, R>[] = [];
  const seen = new Set<string>();
  let parent = "";
  for (;;) {
    const versions = [...(children.get(parent) ?? [])].sort(byCreation);
    const message = shownOf(versions);
    if (!message || seen.has(message.id)) break;
    seen.add(message.id);
    const own = [...(runsOf.get(message.id) ?? [])].sort(byCreation);
    const run = shownOf(own);
    path.push({ message, versions, runs: own, run });
    if (!run) break;
    parent = run.id;
  }
  return path;
}

/** The run the next message follows: the last turn's shown run (null: an empty session). */
export function pathEnd<M extends BranchMessageLike, R extends BranchRunLike>(
  path: readonly PathTurn<M, R>[],
): R | null {
  return path.at(-1)?.run ?? null;
}

/** POST /api/sessions/{id}/messages/{messageId}/edit: a new version of a sent message. */
export const ZEditMessageRequest = z.object({
  message: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(CHAT_MESSAGE_MAX, `must be at most ${CHAT_MESSAGE_MAX} characters`),
});
export type TEditMessageRequest = z.infer<typeof ZEditMessageRequest>;

/** The longest note of role instructions a fork may give its step. */
export const FORK_INSTRUCTIONS_MAX = 4000;

/**
 * POST /api/sessions/{id}/runs/{runId}/steps/{stepId}/fork: a new run of the same message
 * that keeps every step the chosen one does not lead to, and runs that step (on `model`,
 * with `instructions` and `tools` when given) and every step that depends on it again; with
 * `rest`, the steps after it use `model` and `tools` too where their role may.
 */
export const ZForkStepRequest = z.object({
  model: z.string().trim().min(1),
  instructions: z.string().trim().max(FORK_INSTRUCTIONS_MAX).optional(),
  /**
   * The tools the forked step is offered (its plan step's `tools`), only ones its role may use
   * in the session; absent: the step keeps the tools it had; `[]`: none.
   */
  tools: z.array(z.string().trim().min(1).max(80)).max(50).optional(),
  rest: z.boolean().default(false),
});
export type TForkStepRequest = z.input<typeof ZForkStepRequest>;

export const BRANCH_ERROR_CODES = {
  notAUserMessage: "not_a_user_message",
  stepNotCompleted: "step_not_completed",
  /** A fork names a tool its step's role may not use in the session (or that does not exist). */
  unknownTool: "unknown_tool",
} as const;

/** The plan steps a fork from `stepId` runs again: it and every step depending on it. */
export function forkedSteps(
  steps: readonly { id: string; depends_on: readonly string[]; phase: string }[],
  stepId: string,
): Set<string> {
  const out = new Set<string>([stepId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of steps) {
      if (s.phase !== "agent" || out.has(s.id)) continue;
      if (s.depends_on.some((d) => out.has(d))) {
        out.add(s.id);
        grew = true;
      }
    }
  }
  return out;
}

/** POST …/messages/{messageId}/show and …/runs/{runId}/show: the version put on screen. */
export const ZShowBranchResponse = z.object({ shown_at: z.string() });
export type TShowBranchResponse = z.infer<typeof ZShowBranchResponse>;

export const BRANCH_ROUTES = {
  edit: (sessionId: string, messageId: string) =>
    `/api/sessions/${sessionId}/messages/${messageId}/edit`,
  showMessage: (sessionId: string, messageId: string) =>
    `/api/sessions/${sessionId}/messages/${messageId}/show`,
  showRun: (sessionId: string, runId: string) => `/api/sessions/${sessionId}/runs/${runId}/show`,
  fork: (sessionId: string, runId: string, stepId: string) =>
    `/api/sessions/${sessionId}/runs/${runId}/steps/${stepId}/fork`,
} as const;
