import type { FastifyInstance, FastifyRequest } from "fastify";

type Limiter = ReturnType<FastifyInstance["createRateLimit"]>;

const MINUTE_MS = 60_000;
/** One limiter per app (its config): tests build many apps in one process. */
const limiters = new WeakMap<object, Limiter>();
/** Which token a request was counted against, for the limiter's key generator. */
const tokenOfRequest = new WeakMap<FastifyRequest, string>();

/**
 * The per-token budget, on the app's one rate-limit mechanism (@fastify/rate-limit's store:
 * Redis with REDIS_URL, so N instances share one count; in memory otherwise). Counts this
 * request; answers how long to wait when it went over, else null.
 */
export async function limitAccessTokenRate(
  app: FastifyInstance,
  request: FastifyRequest,
  tokenId: string,
): Promise<{ retryAfterSeconds: number } | null> {
  let limiter = limiters.get(app.config);
  if (!limiter) {
    limiter = app.createRateLimit({
      max: app.config.accessTokenRatePerMinute,
      timeWindow: MINUTE_MS,
      keyGenerator: (req) => `pat:${tokenOfRequest.get(req) ?? ""}`,
    });
    limiters.set(app.config, limiter);
  }
  tokenOfRequest.set(request, tokenId);
  const verdict = await limiter(request);
  if (verdict.isAllowed || !verdict.isExceeded) return null;
  return { retryAfterSeconds: Math.max(1, verdict.ttlInSeconds) };
}
