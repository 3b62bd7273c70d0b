import type { TRunStatus } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { findSessionTitles } from "../sessions/find-session-titles";
import { ACTIVE_STATUSES_SQL } from "./run-store";

/** A session's newest run, as the sessions module needs it to tell what the session is doing. */
export interface NewestRun {
  running: boolean;
  ended: "completed" | "failed" | "cancelled" | null;
  startedAt: Date;
  finishedAt: Date | null;
}

/**
 * The same newest run as a part of the sessions module's page statement (one statement per
 * page, decision 027): joins each row of `sessions` to its newest run's facts, as columns
 * named `newest_run_*` (null without a run). Passed to the sessions module at registration.
 * `newest_run_version` names the run's row version (its id and `xmin`, which every update
 * of the row changes): the page compares it instead of the facts (decision 089).
 */
export const NEWEST_RUN_JOIN = `LEFT JOIN LATERAL (
    SELECT r.id::text || '.' || r.xmin::text AS newest_run_version,
      r.status IN ${ACTIVE_STATUSES_SQL} AS newest_run_running,
      r.status AS newest_run_status, r.created_at AS newest_run_started_at,
      r.finished_at AS newest_run_finished_at
    FROM runs r WHERE r.session_id = sessions.id ORDER BY r.created_at DESC LIMIT 1
  ) newest_run ON true`;

/**
 * The newest run of each session (one index probe each: `runs_session`). A session runs one
 * run at a time, so its newest run is the one that runs, if any. Sessions without runs are
 * left out of the map.
 */
export async function findNewestRuns(
  db: Queryable,
  sessionIds: readonly string[],
): Promise<Map<string, NewestRun>> {
  if (sessionIds.length === 0) return new Map();
  const { rows } = await db.query<{
    session_id: string;
    running: boolean;
    status: TRunStatus;
    created_at: Date | string;
    finished_at: Date | string | null;
  }>(
    `SELECT s.id AS session_id, r.status, r.created_at, r.finished_at,
       r.status IN ${ACTIVE_STATUSES_SQL} AS running
     FROM unnest($1::uuid[]) AS s(id)
     CROSS JOIN LATERAL (
       SELECT status, created_at, finished_at FROM runs
       WHERE session_id = s.id ORDER BY created_at DESC LIMIT 1
     ) r`,
    [sessionIds],
  );
  return new Map(
    rows.map((row) => [
      row.session_id,
      {
        running: row.running,
        ended:
          row.status === "completed" || row.status === "failed" || row.status === "cancelled"
            ? row.status
            : null,
        startedAt: new Date(row.created_at),
        finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
      },
    ]),
  );
}

/**
 * The session each run was started in, with its title, for the credit history. Runs go with
 * their session when it is deleted, so those are left out of the map.
 */
export async function findRunSessions(
  db: Queryable,
  runIds: readonly string[],
): Promise<Map<string, { id: string; title: string }>> {
  const ids = runIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; session_id: string }>(
    "SELECT id, session_id FROM runs WHERE id = ANY($1::uuid[])",
    [ids],
  );
  const titles = await findSessionTitles(db, [...new Set(rows.map((row) => row.session_id))]);
  return new Map(
    rows.flatMap((row) => {
      const title = titles.get(row.session_id);
      return title === undefined ? [] : [[row.id, { id: row.session_id, title }] as const];
    }),
  );
}
