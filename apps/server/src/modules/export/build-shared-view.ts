import type { TChatMessage, TRun, TSharedView } from "@cohort/contracts";
import { isoTimestampOrNull, type Queryable } from "../../db/client";
import { listToolCalls } from "../orchestration/list-tool-calls";
import { listRuns } from "../orchestration/run-store";
import { getSession } from "../sessions/find-session";
import { listMessages } from "../sessions/list-messages";
import { branchOnScreen } from "./branch-on-screen";
import { shareNotFound } from "./find-working-share";
import { findDisplayNames } from "./share-names";
import { shareMessages, shareRun } from "./share-projection";
import type { ShareRow } from "./share-row";

/** A run's conversation: the message that started it and its answers. */
function messagesOf(messages: readonly TChatMessage[], run: TRun): TChatMessage[] {
  return messages.filter(
    (m) => m.run_id === run.id || m.id === run.message_id || m.id === run.result_message_id,
  );
}

async function runStarters(db: Queryable, sessionId: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ id: string; user_id: string }>(
    "SELECT id, user_id FROM runs WHERE session_id = $1",
    [sessionId],
  );
  return new Map(rows.map((row) => [row.id, row.user_id]));
}

/**
 * What a share link shows: the session (or the one run) as stored, filtered for a stranger.
 * Runs go through the share projection (`shareRun`, the live stream's events through the
 * same one): costs null unless shared, the approved memories a run used never, tool calls
 * without their arguments and output (decision 076). Names are
 * display names and only when shared. A shared run that is gone answers the link's 404.
 */
export async function buildSharedView(
  db: Queryable,
  share: ShareRow,
  lastSeq: number,
): Promise<TSharedView> {
  const session = await getSession(db, share.session_id);
  if (!session) throw shareNotFound();
  const [storedMessages, storedRuns, toolCalls, starters] = await Promise.all([
    listMessages(db, session.id),
    listRuns(db, session.id),
    listToolCalls(db, session.id),
    share.show_names ? runStarters(db, session.id) : Promise.resolve(new Map<string, string>()),
  ]);
  // A session's link shows the branch on screen; a run's link its run (decision 070).
  const onScreen =
    share.run_id === null
      ? branchOnScreen(storedMessages, storedRuns)
      : { messages: storedMessages, runs: storedRuns };
  const allMessages = onScreen.messages;
  const allRuns = onScreen.runs;
  const runs = share.run_id === null ? allRuns : allRuns.filter((r) => r.id === share.run_id);
  if (share.run_id !== null && runs.length === 0) throw shareNotFound();
  const names = share.show_names
    ? await findDisplayNames(db, [session.userId, ...starters.values()])
    : new Map<string, string>();
  const nameOf = (userId: string | undefined) => (userId ? (names.get(userId) ?? null) : null);
  const view: TSharedView = {
    share: {
      kind: share.run_id === null ? "session" : "run",
      run_id: share.run_id,
      show_costs: share.show_costs,
      show_names: share.show_names,
      live: share.live,
      expires_at: isoTimestampOrNull(share.expires_at),
    },
    session: {
      title: session.title,
      description: session.description,
      created_at: session.created_at,
      created_by: nameOf(session.userId),
      spent_credits: session.spent_credits,
    },
    messages: shareMessages(
      share.run_id === null ? allMessages : messagesOf(allMessages, runs[0] as TRun),
      share,
    ),
    runs: runs.map((run) =>
      shareRun(run, share, nameOf(starters.get(run.id)), toolCalls.get(run.id) ?? []),
    ),
    last_seq: lastSeq,
  };
  if (share.show_costs) return view;
  return { ...view, session: { ...view.session, spent_credits: null } };
}
