import type { TAdminOverview, TAdminOverviewDay } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { sumRevenueByDay } from "../billing/sum-revenue-by-day";
import { countMessagesByDay } from "../cochat/count-messages-by-day";
import { summarizeCreditFlows } from "../credits/summarize-credit-flows";
import { checkModelHealth } from "../models/check-model-health";
import type { ModelGateway } from "../models/gateway";
import type { ModelCallStats } from "../models/model-call-stats";
import { countRunsByDay } from "../orchestration/count-runs-by-day";
import { countDroppedAnalytics } from "../telemetry/count-anonymous-analytics";
import { countUsers } from "../users/count-users";

const DAY_MS = 86_400_000;

/** The last `days` UTC days, oldest first, today included. */
export function utcDays(days: number, now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** The overview's numbers per day, each from the module that owns it. */
export async function getAdminOverview(
  db: Queryable,
  models: { gateway: ModelGateway; stats: ModelCallStats },
  days: number,
  now = new Date(),
): Promise<TAdminOverview> {
  const dates = utcDays(days, now);
  const since = new Date(`${dates[0]}T00:00:00.000Z`);
  const [users, credits, runs, messages, revenue, dropped] = await Promise.all([
    countUsers(db, since),
    summarizeCreditFlows(db, since),
    countRunsByDay(db, since),
    countMessagesByDay(db, since),
    sumRevenueByDay(db, since),
    countDroppedAnalytics(db, since),
  ]);
  const perDay: TAdminOverviewDay[] = dates.map((date) => ({
    date,
    signups: users.signupsByDay.get(date) ?? 0,
    active_users: credits.get(date)?.activeUsers ?? 0,
    runs: runs.get(date) ?? 0,
    cochat_messages: messages.get(date) ?? 0,
    revenue_cents: revenue.get(date) ?? 0,
    credits_granted: credits.get(date)?.granted ?? 0,
    credits_spent: credits.get(date)?.spent ?? 0,
  }));
  return {
    days: perDay,
    totals: { users: users.users, disabled_users: users.disabledUsers },
    providers: checkModelHealth(models.gateway).providers,
    models: models.stats.read(),
    analytics_dropped: dropped,
  };
}
