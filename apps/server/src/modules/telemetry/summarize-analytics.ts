import {
  FUNNEL_EVENT_CATEGORY,
  type TAnalyticsSummary,
  type TAnalyticsSummaryQuery,
  type TWebVitalsP75,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";

/** Without a window, the summary covers the last 30 days. */
const DEFAULT_WINDOW_MS = 30 * 24 * 3600 * 1000;

interface CountRow {
  key: string;
  count: number;
}

interface VitalsRow {
  page_path: string;
  samples: number;
  lcp: number | null;
  fid: number | null;
  inp: number | null;
  cls: number | null;
  ttfb: number | null;
  fcp: number | null;
}

interface FunnelRow {
  landing: number;
  sign_up: number;
  first_run: number;
  purchase: number;
}

const WINDOW = "created_at >= $1 AND created_at < $2";
/** Where web vitals sent without a page are counted. */
export const NO_PAGE = "(no page)";

/**
 * The admin's Analytics view in one call: top pages, referrer hosts and UTM sources (by
 * distinct analytics session), the landing → sign-up → first run → purchase funnel, and web
 * vitals p75 per route, over [from, to).
 */
export async function summarizeAnalytics(
  db: Queryable,
  query: TAnalyticsSummaryQuery,
  now: Date = new Date(),
): Promise<TAnalyticsSummary> {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_WINDOW_MS);
  const window = [from.toISOString(), to.toISOString()];
  const limited = [...window, query.limit];

  const [totals, topPages, referrers, utmSources, funnel, vitals] = await Promise.all([
    db.query<{ page_views: number; sessions: number }>(
      `SELECT count(*)::int AS page_views, count(DISTINCT analytics_session_id)::int AS sessions
       FROM analytics_page_views WHERE ${WINDOW}`,
      window,
    ),
    db.query<CountRow>(
      `SELECT page_path AS key, count(*)::int AS count FROM analytics_page_views
       WHERE ${WINDOW} GROUP BY page_path ORDER BY count DESC, key LIMIT $3`,
      limited,
    ),
    db.query<CountRow>(
      `SELECT key, count(DISTINCT analytics_session_id)::int AS count FROM (
         SELECT substring(referrer from '^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]+)') AS key,
           analytics_session_id
         FROM analytics_page_views WHERE ${WINDOW}
       ) hosts WHERE key IS NOT NULL GROUP BY key ORDER BY count DESC, key LIMIT $3`,
      limited,
    ),
    db.query<CountRow>(
      `SELECT utm_source AS key, count(DISTINCT analytics_session_id)::int AS count
       FROM analytics_page_views WHERE ${WINDOW} AND utm_source IS NOT NULL
       GROUP BY utm_source ORDER BY count DESC, key LIMIT $3`,
      limited,
    ),
    db.query<FunnelRow>(
      // Landing and sign-up are chained by analytics session (one visit); a run and a purchase
      // may come in later visits, so from sign-up on the chain follows the user.
      `WITH landing AS (
         SELECT DISTINCT analytics_session_id AS s FROM analytics_page_views
         WHERE ${WINDOW} AND page_path = '/'
       ), signed_up AS (
         SELECT e.analytics_session_id AS s, e.user_id FROM analytics_events e
         JOIN landing l ON l.s = e.analytics_session_id
         WHERE e.${WINDOW} AND e.category = $3 AND e.action = 'sign_up'
       ), first_run AS (
         SELECT DISTINCT e.user_id FROM analytics_events e
         WHERE e.${WINDOW} AND e.category = $3 AND e.action = 'first_run'
           AND e.user_id IN (SELECT user_id FROM signed_up)
       ), purchase AS (
         SELECT DISTINCT e.user_id FROM analytics_events e
         WHERE e.${WINDOW} AND e.category = $3 AND e.action = 'purchase'
           AND e.user_id IN (SELECT user_id FROM first_run)
       )
       SELECT (SELECT count(*) FROM landing)::int AS landing,
         (SELECT count(DISTINCT s) FROM signed_up)::int AS sign_up,
         (SELECT count(*) FROM first_run)::int AS first_run,
         (SELECT count(*) FROM purchase)::int AS purchase`,
      [...window, FUNNEL_EVENT_CATEGORY],
    ),
    db.query<VitalsRow>(
      // The spec's payload may leave the page out: those samples are grouped
      // under NO_PAGE, never a null key the summary's schema refuses (a 500 before).
      `SELECT coalesce(page_path, '${NO_PAGE}') AS page_path, count(*)::int AS samples,
         percentile_cont(0.75) WITHIN GROUP (ORDER BY lcp) AS lcp,
         percentile_cont(0.75) WITHIN GROUP (ORDER BY fid) AS fid,
         percentile_cont(0.75) WITHIN GROUP (ORDER BY inp) AS inp,
         percentile_cont(0.75) WITHIN GROUP (ORDER BY cls) AS cls,
         percentile_cont(0.75) WITHIN GROUP (ORDER BY ttfb) AS ttfb,
         percentile_cont(0.75) WITHIN GROUP (ORDER BY fcp) AS fcp
       FROM analytics_performance WHERE ${WINDOW}
       GROUP BY 1 ORDER BY samples DESC, page_path LIMIT $3`,
      limited,
    ),
  ]);

  const steps = funnel.rows[0] ?? { landing: 0, sign_up: 0, first_run: 0, purchase: 0 };
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    pageViews: totals.rows[0]?.page_views ?? 0,
    sessions: totals.rows[0]?.sessions ?? 0,
    topPages: topPages.rows,
    referrers: referrers.rows,
    utmSources: utmSources.rows,
    funnel: [
      { step: "landing", count: steps.landing },
      { step: "sign_up", count: steps.sign_up },
      { step: "first_run", count: steps.first_run },
      { step: "purchase", count: steps.purchase },
    ],
    webVitals: vitals.rows.map(
      (row): TWebVitalsP75 => ({
        pagePath: row.page_path,
        samples: row.samples,
        lcp: row.lcp,
        fid: row.fid,
        inp: row.inp,
        cls: row.cls,
        ttfb: row.ttfb,
        fcp: row.fcp,
      }),
    ),
  };
}
