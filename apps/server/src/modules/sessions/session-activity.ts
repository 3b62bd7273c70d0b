import {
  isRunActive,
  type SessionRunFacts,
  sessionActivity,
  type TRun,
  type TSession,
} from "@cohort/contracts";
import type { StoredSession } from "./session-row";

/** A session's newest run, from the run engine (passed in at registration: `SessionRuns`). */
export interface NewestRun {
  running: boolean;
  ended: SessionRunFacts["lastRunEnded"];
  startedAt: Date;
  finishedAt: Date | null;
}

/**
 * The session as the API shows it: what it is doing, derived from its newest run and its
 * last change at the time of the read (decision 032). Nothing is stored, so it can never be
 * out of step with the runs, and `idle` needs no timer.
 */
export function withActivity(
  session: StoredSession,
  newest: NewestRun | undefined,
  now = Date.now(),
): TSession {
  // A copy (Object.assign, not a spread: on Node 20 spreading a session of 13+ fields measured
  // ~15× slower, decision 072): the caller's session stays as it was.
  return addActivity(Object.assign({}, session), newest, now);
}

/**
 * `withActivity` on a session the caller has just made and hands over (a page's rows): the
 * two fields are added to it instead of to a copy, one object per row instead of two
 * (decision 082). Same keys, same values.
 */
export function addActivity(
  session: StoredSession,
  newest: NewestRun | undefined,
  now = Date.now(),
): TSession {
  const lastActivityAt = Math.max(
    Date.parse(session.updated_at),
    newest?.startedAt.getTime() ?? 0,
    newest?.finishedAt?.getTime() ?? 0,
  );
  const facts: SessionRunFacts = {
    running: newest?.running ?? false,
    lastRunEnded: newest?.ended ?? null,
    lastActivityAt,
  };
  const shown = session as TSession;
  shown.activity = sessionActivity(facts, now);
  shown.last_activity_at = new Date(lastActivityAt).toISOString();
  return shown;
}

/** The newest of a session's runs (the detail's list, oldest first) in the same terms. */
export function newestOf(runs: readonly TRun[]): NewestRun | undefined {
  const run = runs.at(-1);
  if (!run) return undefined;
  return {
    running: isRunActive(run.status),
    ended: endedOf(run.status),
    startedAt: new Date(run.created_at),
    finishedAt: run.finished_at === null ? null : new Date(run.finished_at),
  };
}

/** How a run ended, or null while it runs. */
export function endedOf(status: TRun["status"] | null): NewestRun["ended"] {
  return status === "completed" || status === "failed" || status === "cancelled" ? status : null;
}
