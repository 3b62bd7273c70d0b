import type { FastifyInstance, FastifyRequest } from "fastify";
import { createRateBudget, type RateBudget, type RateRefusal } from "../../platform/rate-limit";

const MINUTE_MS = 60_000;
/** One budget per app (its config): tests build many apps in one process. */
const budgets = new WeakMap<object, RateBudget>();

/**
 * The per-token budget, on the app's one rate-limit mechanism (`createRateBudget`). Counts
 * this request; answers how long to wait when it went over, else null.
 */
export async function limitAccessTokenRate(
  app: FastifyInstance,
  request: FastifyRequest,
  tokenId: string,
): Promise<RateRefusal | null> {
  let budget = budgets.get(app.config);
  if (!budget) {
    budget = createRateBudget(app, {
      name: "pat",
      max: app.config.accessTokenRatePerMinute,
      windowMs: MINUTE_MS,
    });
    budgets.set(app.config, budget);
  }
  return budget.take(request, tokenId);
}
