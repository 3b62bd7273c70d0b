import type { TUsageStats, TUserUsage } from "@cohort/contracts";
import { creditsOf, hundredths } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

interface TotalsRow {
  requests: number;
  tokens: number;
  credits: number;
  cost: number;
}

/** The data model usage stats of the user's whole history; zeros when there is none. */
export async function getUsageStats(db: Queryable, userId: string): Promise<TUsageStats> {
  const { rows } = await db.query<TotalsRow>(
    `SELECT count(*)::bigint AS requests,
       COALESCE(sum(input_tokens + output_tokens), 0)::bigint AS tokens,
       COALESCE(sum(credits), 0)::bigint AS credits,
       COALESCE(sum(cost_usd), 0)::numeric AS cost
     FROM usage_events WHERE user_id = $1`,
    [userId],
  );
  return toStats(rows[0]);
}

function toStats(row: TotalsRow | undefined): TUsageStats {
  return {
    total_requests: row?.requests ?? 0,
    total_tokens: row?.tokens ?? 0,
    total_cost: roundCost(row?.cost ?? 0),
    total_credits_used: creditsOf(hundredths(row?.credits ?? 0)),
  };
}

const roundCost = (usd: number) => Math.round(usd * 1_000_000) / 1_000_000;

interface DayRow {
  date: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  credits: number;
  cost: number;
}

interface ModelRow extends Omit<DayRow, "date"> {
  model: string;
  provider: string;
}

/** The last `days` days (UTC, today included): per day with zeros filled in, and per model. */
export async function getUsageBreakdown(
  db: Queryable,
  userId: string,
  days: number,
  now: Date = new Date(),
): Promise<TUserUsage> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const fromMs = today - (days - 1) * 86_400_000;
  const from = new Date(fromMs);
  const sums = `count(*)::bigint AS requests,
    COALESCE(sum(input_tokens), 0)::bigint AS input_tokens,
    COALESCE(sum(output_tokens), 0)::bigint AS output_tokens,
    COALESCE(sum(credits), 0)::bigint AS credits,
    COALESCE(sum(cost_usd), 0)::numeric AS cost`;
  const [byDay, byModel, totals] = await Promise.all([
    db.query<DayRow>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, ${sums}
       FROM usage_events WHERE user_id = $1 AND created_at >= $2
       GROUP BY 1 ORDER BY 1`,
      [userId, from],
    ),
    db.query<ModelRow>(
      `SELECT model, provider, ${sums}
       FROM usage_events WHERE user_id = $1 AND created_at >= $2
       GROUP BY model, provider ORDER BY credits DESC, requests DESC, model`,
      [userId, from],
    ),
    db.query<TotalsRow>(
      `SELECT count(*)::bigint AS requests,
         COALESCE(sum(input_tokens + output_tokens), 0)::bigint AS tokens,
         COALESCE(sum(credits), 0)::bigint AS credits,
         COALESCE(sum(cost_usd), 0)::numeric AS cost
       FROM usage_events WHERE user_id = $1 AND created_at >= $2`,
      [userId, from],
    ),
  ]);
  const found = new Map(byDay.rows.map((row) => [row.date, row]));
  const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const dayList = Array.from({ length: days }, (_, i) => {
    const date = isoDay(fromMs + i * 86_400_000);
    const row = found.get(date);
    return {
      date,
      requests: row?.requests ?? 0,
      input_tokens: row?.input_tokens ?? 0,
      output_tokens: row?.output_tokens ?? 0,
      credits: creditsOf(hundredths(row?.credits ?? 0)),
      cost: roundCost(row?.cost ?? 0),
    };
  });
  return {
    from: isoDay(fromMs),
    to: isoDay(today),
    totals: toStats(totals.rows[0]),
    days: dayList,
    models: byModel.rows.map((row) => ({
      model: row.model,
      provider: row.provider,
      requests: row.requests,
      input_tokens: row.input_tokens,
      output_tokens: row.output_tokens,
      credits: creditsOf(hundredths(row.credits)),
      cost: roundCost(row.cost),
    })),
  };
}
