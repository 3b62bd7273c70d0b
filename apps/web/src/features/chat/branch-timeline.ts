import { conversationPath, forkedSteps, type TChatMessage, type TRunFork } from "@cohort/contracts";
import { type ConversationState, type RunView, sameRunPlaces } from "./run-state";

/**
 * The conversation on screen (decision 070): from the first turn, through the version of each
 * message and each answer shown. `picks` are the versions this page put on screen since it
 * loaded (newest highest): they win over the stored times, whose clock is the server's.
 */
export type Picks = Readonly<Record<string, number>>;

export interface BranchTurn {
  message: TChatMessage;
  versions: TChatMessage[];
  runs: RunView[];
  run: RunView | null;
}

const picked = (picks: Picks, id: string, stored: string | undefined) => {
  const n = picks[id];
  // "~" sorts after every ISO time: a version picked here is newer than any stored one.
  return n === undefined ? stored : `~${String(n).padStart(8, "0")}`;
};

type Forks = Readonly<Record<string, TRunFork>>;
const NO_FORKS: Forks = {};

/** A run as the branch shows it: with its fork started on this page, until one is stored. */
const viewOf = (run: RunView, forks: Forks): RunView =>
  run.fork || !forks[run.id] ? run : { ...run, fork: forks[run.id] };

export function branchTimeline(
  state: ConversationState,
  picks: Picks,
  /** Forks started on this page, before a reload brings their stored origin. */
  forks: Forks = {},
): BranchTurn[] {
  const messages = state.messages.map((m) => ({
    ...m,
    shown_at: picked(picks, m.id, m.shown_at),
  }));
  const runs = Object.values(state.runs).flatMap((run) =>
    run.messageId
      ? [
          {
            id: run.id,
            message_id: run.messageId,
            created_at: run.createdAt ?? "",
            shown_at: picked(picks, run.id, run.shownAt),
            view: viewOf(run, forks),
          },
        ]
      : [],
  );
  const original = new Map(state.messages.map((m) => [m.id, m]));
  return conversationPath(messages, runs).map((turn) => ({
    message: original.get(turn.message.id) ?? turn.message,
    versions: turn.versions.map((m) => original.get(m.id) ?? m),
    runs: turn.runs.map((r) => r.view),
    run: turn.run?.view ?? null,
  }));
}

/**
 * `branchTimeline` for a page whose state changes on every streamed frame (decision 077):
 * while the messages, the picks and where each run sits stay the same (a delta changes a
 * run's contents only), the last turns are kept and only those of changed runs are made
 * again, instead of walking the whole session each frame. The same turns either way.
 */
export function createBranchTimeline() {
  let last: { state: ConversationState; picks: Picks; forks: Forks; turns: BranchTurn[] } | null =
    null;
  return (state: ConversationState, picks: Picks, forks: Forks = NO_FORKS): BranchTurn[] => {
    let turns: BranchTurn[];
    if (last && last.picks === picks && last.forks === forks && sameRunPlaces(last.state, state)) {
      const before = last.state.runs;
      const now = state.runs;
      turns = last.turns.map((turn) => {
        if (turn.runs.every((r) => before[r.id] === now[r.id])) return turn;
        const runs = turn.runs.map((r) => viewOf(now[r.id] ?? r, forks));
        return { ...turn, runs, run: runs.find((r) => r.id === turn.run?.id) ?? null };
      });
    } else {
      turns = branchTimeline(state, picks, forks);
    }
    last = { state, picks, forks, turns };
    return turns;
  };
}

/** What an answer version is, in a few words. */
export function versionLabel(run: RunView, runs: readonly RunView[]): string {
  const index = runs.indexOf(run);
  if (run.fork) {
    const step = runs
      .find((r) => r.id === run.fork?.from_run_id)
      ?.plan?.steps.find((s) => s.id === run.fork?.step_id);
    const role = step ? `${step.role[0]?.toUpperCase()}${step.role.slice(1)}'s` : "a";
    return `Fork from the ${role} step`;
  }
  return index === 0 ? "Original answer" : "Regenerated answer";
}

/** The plan steps a fork ran again (the others it kept as they were). */
export function rerunStepsOf(fork: TRunFork, original: RunView | undefined): Set<string> {
  if (fork.rerun_steps.length > 0) return new Set(fork.rerun_steps);
  return forkedSteps(original?.plan?.steps ?? [], fork.step_id);
}
