import {
  conversationPath,
  isRunActive,
  type TChatMessage,
  type TRunStatus,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { listMessages, messagesFromJson, messagesJson } from "../sessions/list-messages";
import type { MessageRow } from "../sessions/session-row";
import type { RunRef } from "./run-store";

/**
 * A conversation's branches (decision 070): which messages a call sees. A user message
 * follows the run it was sent after, so a message's history is its ancestors — each earlier
 * turn's message and the answer of the run it followed — and a new message follows the end
 * of the branch on screen. Sessions are small; the tree is read whole.
 */

export interface RunLink {
  id: string;
  message_id: string;
  result_message_id: string | null;
  created_at: string;
  shown_at: string;
}

export interface BranchTree {
  messages: TChatMessage[];
  runs: RunLink[];
}

interface RunLinkRow {
  id: string;
  message_id: string;
  result_message_id: string | null;
  created_at: Date | string;
  shown_at: Date | string;
}

const RUN_LINK_COLUMNS = "id, message_id, result_message_id, created_at, shown_at";

const toRunLink = (r: RunLinkRow): RunLink => ({
  id: r.id,
  message_id: r.message_id,
  result_message_id: r.result_message_id,
  created_at: new Date(r.created_at).toISOString(),
  shown_at: new Date(r.shown_at).toISOString(),
});

export async function loadBranchTree(db: Queryable, sessionId: string): Promise<BranchTree> {
  const [messages, runs] = await Promise.all([
    listMessages(db, sessionId),
    db.query<RunLinkRow>(
      `SELECT ${RUN_LINK_COLUMNS} FROM runs WHERE session_id = $1 ORDER BY created_at, id`,
      [sessionId],
    ),
  ]);
  return { messages, runs: runs.rows.map(toRunLink) };
}

/** The tree, and what starting a run checks beside it (`readForStart`). */
export interface StartTree {
  tree: BranchTree;
  /** The session's active run, if any. */
  active: RunRef | null;
  /** Whether a step of an ended run is being re-run in the session. */
  rerunning: boolean;
}

/**
 * The tree as a start reads it: the session's runs come with their status, which names the
 * active run, and with whether a step's re-run goes on (one flag for the session), in one
 * statement instead of three (decision 086). A session with no run has neither.
 */
export async function loadStartTree(db: Queryable, sessionId: string): Promise<StartTree> {
  const [messages, runs] = await Promise.all([
    listMessages(db, sessionId),
    db.query<StartRunRow & { rerunning: boolean }>(
      `SELECT ${RUN_LINK_COLUMNS}, user_id, status, ${RERUNNING("$1")} AS rerunning
       FROM runs WHERE session_id = $1 ORDER BY created_at, id`,
      [sessionId],
    ),
  ]);
  return startTreeOf(sessionId, messages, runs.rows, runs.rows[0]?.rerunning ?? false);
}

type StartRunRow = RunLinkRow & { user_id: string; status: TRunStatus };

/** Whether a step of an ended run of the session (an SQL expression) is being re-run. */
const RERUNNING = (sessionId: string) =>
  `EXISTS (SELECT 1 FROM run_steps s JOIN runs r ON r.id = s.run_id
           WHERE r.session_id = ${sessionId} AND s.status = 'running' AND s.rerun_of IS NOT NULL)`;

function startTreeOf(
  sessionId: string,
  messages: TChatMessage[],
  runs: StartRunRow[],
  rerunning: boolean,
): StartTree {
  const active = runs.find((r) => isRunActive(r.status));
  return {
    tree: { messages, runs: runs.map(toRunLink) },
    active: active
      ? { id: active.id, sessionId, userId: active.user_id, status: active.status }
      : null,
    rerunning: runs.length > 0 && rerunning,
  };
}

/**
 * The same reads as `loadStartTree` as one JSON value, for a statement that reads them beside
 * other things: a run's start rides them on the sign-in's statement (decision 087).
 * `sessionId` is an SQL expression.
 */
export function startTreeJson(sessionId: string): string {
  return `json_build_object(
    'messages', ${messagesJson(sessionId)},
    'runs', (SELECT coalesce(json_agg(r ORDER BY r.created_at, r.id), '[]') FROM
      (SELECT ${RUN_LINK_COLUMNS}, user_id, status FROM runs WHERE session_id = ${sessionId}) r),
    'rerunning', ${RERUNNING(sessionId)})`;
}

/** What `startTreeJson` read, as `loadStartTree` gives it. */
export function startTreeFromJson(
  sessionId: string,
  value: { messages: MessageRow[]; runs: StartRunRow[]; rerunning: boolean },
): StartTree {
  return startTreeOf(sessionId, messagesFromJson(value.messages), value.runs, value.rerunning);
}

/**
 * The turns a message sent after `parentRunId` follows, oldest first: for each run up the
 * chain, its user message and (when it has one) its answer.
 */
export function ancestorsOf(tree: BranchTree, parentRunId: string | null): TChatMessage[] {
  const messages = new Map(tree.messages.map((m) => [m.id, m]));
  const runs = new Map(tree.runs.map((r) => [r.id, r]));
  const chain: TChatMessage[] = [];
  const seen = new Set<string>();
  let current = parentRunId;
  while (current && !seen.has(current)) {
    seen.add(current);
    const run = runs.get(current);
    const asked = run ? messages.get(run.message_id) : undefined;
    if (!run || !asked) break;
    const answer = run.result_message_id ? messages.get(run.result_message_id) : undefined;
    chain.unshift(...(answer ? [asked, answer] : [asked]));
    current = asked.parent_run_id ?? null;
  }
  return chain;
}

/** The run a new message follows: the end of the branch on screen (null: none yet). */
export function shownEnd(tree: BranchTree): string | null {
  return conversationPath(tree.messages, tree.runs).at(-1)?.run?.id ?? null;
}

/**
 * A session imported from an export made before branches (no user message names the run it
 * follows): one straight branch, as migration 0046 made of every existing conversation.
 */
export async function linkStraightBranch(db: Queryable, sessionId: string): Promise<void> {
  await db.query(
    `UPDATE session_messages m SET parent_run_id = (
       SELECT r.id FROM session_messages p JOIN runs r ON r.message_id = p.id
       WHERE p.session_id = m.session_id AND p.role = 'user'
         AND (p.created_at < m.created_at OR (p.created_at = m.created_at AND p.id < m.id))
       ORDER BY p.created_at DESC, p.id DESC, r.created_at DESC, r.id DESC
       LIMIT 1
     )
     WHERE m.session_id = $1 AND m.role = 'user'
       AND NOT EXISTS (
         SELECT 1 FROM session_messages o
         WHERE o.session_id = $1 AND o.parent_run_id IS NOT NULL
       )`,
    [sessionId],
  );
}
