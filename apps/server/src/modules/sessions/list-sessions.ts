import type { TRunStatus, TSessionsQuery, TSessionsResponse } from "@cohort/contracts";
import { prepared, type Queryable } from "../../db/client";
import type { SignInRider } from "../../platform/auth";
import { addActivity, endedOf } from "./session-activity";
import { isoFromJson, SESSION_COLUMNS, type SessionRow, toSession } from "./session-row";

const WHERE = "WHERE workspace_id = $1 AND ($2::text IS NULL OR lower(title) LIKE $2)";
const ORDER = "ORDER BY created_at DESC, id DESC";
/**
 * The dashboard's call, prepared once per connection: the page as one JSON text, its rows
 * in order, each with the total (a window count) and its newest run's facts (`newestRunJoin`,
 * the run engine's part, decision 032). One value instead of a page of rows × 13 columns:
 * PostgreSQL puts one value out instead of 260, and the driver parses one string. Measured
 * on PGlite, the page cost half the WebAssembly execution, and none of the per-value parsing
 * and cloning to the server's thread (decision 027). `workspace` is the workspace's id as an
 * SQL expression: `$1`, or the signed-in user's id when the page rides on the sign-in's
 * statement (decision 084); the other parameters are $2–$4 either way.
 */
function pageSelect(newestRunJoin: string, workspace: string): string {
  return `
      SELECT json_agg(p ${ORDER})::text AS page FROM (
        SELECT ${PAGE_COLUMNS} FROM (${pageRows(workspace)}) sessions ${newestRunJoin}
      ) p`;
}

/** The page's rows as the JSON text names them: the session, the total, the run's facts. */
const PAGE_COLUMNS = `${SESSION_COLUMNS}, total, newest_run_running, newest_run_status,
  newest_run_started_at, newest_run_finished_at`;

/**
 * The page's sessions, before their newest runs. The newest runs are joined to the page's
 * rows only, after the LIMIT (decision 088): one probe of `runs` per row sent, not one per
 * session of the workspace. The caller names the result `sessions`, which the join refers to.
 */
const pageRows = (workspace: string) => `
          SELECT xmin AS row_xmin, ${SESSION_COLUMNS}, count(*) OVER ()::int AS total
          FROM sessions
          WHERE workspace_id = ${workspace} AND ($2::text IS NULL OR lower(title) LIKE $2)
          ${ORDER} LIMIT $3 OFFSET $4`;

/**
 * The personal page as the sign-in's rider, conditional (decision 089): `$5` is the version
 * of the page the caller kept from this sign-in's last request (null: none). The page's
 * version lists, in order, each row's version — the session's id and `xmin`, its newest
 * run's id and `xmin` — and the total. Every committed insert, update or delete of a row
 * gives it a new `xmin` (PostgreSQL keeps the raw `xmin` when a row is frozen), so the same
 * version means the same rows with the same values: the same page text. The value is the
 * version alone when it equals `$5`; else the version, a newline and the page's JSON text,
 * made from the same rows (one materialised set, so the text and the version agree even
 * where two runs tie for newest); null when the page has no row. The rows, their runs and
 * the window count are read every request either way; only the JSON is skipped.
 */
function versionedPageSelect(newestRunJoin: string, workspace: string): string {
  return `
      WITH page_rows AS MATERIALIZED (
        SELECT ${PAGE_COLUMNS}, sessions.id::text || '.' || sessions.row_xmin::text || '.'
          || coalesce(newest_run_version, '') AS row_version
        FROM (${pageRows(workspace)}) sessions ${newestRunJoin}
      ), page_version AS (
        SELECT string_agg(row_version, ',' ${ORDER}) || ',' || max(total)::text AS version
        FROM page_rows
      )
      SELECT CASE WHEN version = $5::text THEN version ELSE version || E'\\n' || (
        SELECT json_agg(p ${ORDER})::text FROM (SELECT ${PAGE_COLUMNS} FROM page_rows) p
      ) END FROM page_version`;
}

/** The personal page's rider value: its version, and its text unless it was the kept one. */
export function readRidden(
  ridden: string | null,
): { version: string; text: string | undefined } | null {
  if (ridden === null) return null;
  const newline = ridden.indexOf("\n");
  return newline === -1
    ? { version: ridden, text: undefined }
    : { version: ridden.slice(0, newline), text: ridden.slice(newline + 1) };
}

const pages = new Map<string, string>();
function pageStatement(newestRunJoin: string): string {
  let statement = pages.get(newestRunJoin);
  if (!statement) {
    statement = prepared(pageSelect(newestRunJoin, "$1"));
    pages.set(newestRunJoin, statement);
  }
  return statement;
}

const riders = new Map<string, SignInRider>();
/**
 * The personal workspace's page (its id is the user's) as a rider of the sign-in's statement:
 * an authenticated page of one's own sessions costs one statement (decision 084).
 */
export function personalPageRider(newestRunJoin: string): SignInRider {
  let rider = riders.get(newestRunJoin);
  if (!rider) {
    rider = { subquery: (userId) => versionedPageSelect(newestRunJoin, userId) };
    riders.set(newestRunJoin, rider);
  }
  return rider;
}

/** The page's parameters after the workspace: $2–$4 of either statement (the rider's $5 apart). */
export function pageParams(query: TSessionsQuery): [string | null, number, number] {
  const pattern = query.q ? `%${query.q.toLowerCase().replace(/[\\%_]/g, "\\$&")}%` : null;
  return [pattern, query.pageSize, (query.page - 1) * query.pageSize];
}

/** The page's text as the database gives it (null: no row), for `listSessions`. */
export async function readPage(
  db: Queryable,
  workspaceId: string,
  query: TSessionsQuery,
  newestRunJoin: string,
): Promise<string | null> {
  const [pattern, limit, offset] = pageParams(query);
  const { rows } = await db.query<{ page: string | null }>(pageStatement(newestRunJoin), [
    workspaceId,
    pattern,
    limit,
    offset,
  ]);
  return rows[0]?.page ?? null;
}

/** A page row: the session, the total, and its newest run's facts (nulls without a run). */
interface PageRow extends SessionRow {
  created_at: string;
  updated_at: string;
  total: number;
  newest_run_running: boolean | null;
  newest_run_status: TRunStatus | null;
  newest_run_started_at: string | null;
  newest_run_finished_at: string | null;
}

/**
 * One page of a workspace's sessions (the caller has checked access), newest first, optionally those whose title has `q`. The
 * page and the total come from one statement (a window count); only a page past the end,
 * which has no row to carry the total, costs a second one. `ridden`: the page as the
 * sign-in's statement already read it (`personalPageRider`, for this workspace and query).
 */
export async function listSessions(
  db: Queryable,
  workspaceId: string,
  query: TSessionsQuery,
  newestRunJoin: string,
  ridden?: string | null,
  now = Date.now(),
): Promise<TSessionsResponse> {
  const [pattern] = pageParams(query);
  const text =
    ridden !== undefined ? ridden : await readPage(db, workspaceId, query, newestRunJoin);
  const page = JSON.parse(text ?? "[]") as PageRow[];
  const total =
    page[0]?.total ??
    (
      await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM sessions ${WHERE}`, [
        workspaceId,
        pattern,
      ])
    ).rows[0]?.total ??
    0;
  return {
    // Each row is this call's own (just parsed): its timestamps are rewritten in place and
    // the session made from it gets its activity added, not copied (decision 082).
    sessions: page.map((row) => {
      row.created_at = isoFromJson(row.created_at);
      row.updated_at = isoFromJson(row.updated_at);
      if (row.imported_export_at) {
        row.imported_export_at = isoFromJson(row.imported_export_at as string);
      }
      return addActivity(
        toSession(row),
        row.newest_run_started_at === null
          ? undefined
          : {
              running: row.newest_run_running === true,
              ended: endedOf(row.newest_run_status),
              startedAt: new Date(row.newest_run_started_at),
              finishedAt:
                row.newest_run_finished_at === null ? null : new Date(row.newest_run_finished_at),
            },
        now,
      );
    }),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}
