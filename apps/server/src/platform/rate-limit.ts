import { ERROR_CODES } from "@cohort/contracts";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import { AppError } from "./errors";

export interface RateLimitOptions {
  perMinute: number;
  redis?: Redis | undefined;
  /** Redis key prefix; tests give each app its own. */
  nameSpace?: string;
}

/** Routes a load balancer or the browser polls constantly are never throttled. */
const UNLIMITED = new Set(["/api/health", "/api/health/live", "/api/health/ready"]);

/**
 * The matched route's pattern, never the raw URL: `/%61pi/sessions` is routed to
 * `/api/sessions`, and a test on the raw text would let it through unthrottled.
 */
function isThrottledRoute(route: string | undefined): boolean {
  return route?.startsWith("/api/") === true && !UNLIMITED.has(route);
}

/**
 * A per-IP budget for the API: in memory by default, shared through Redis when REDIS_URL
 * is set so that N instances enforce one limit. Over budget: 429 with Retry-After.
 */
export async function registerRateLimit(app: FastifyInstance, options: RateLimitOptions) {
  // Decided once per route, when it is added: an unthrottled route (health, the web app's
  // files) gets no rate-limit hook at all instead of one that computes a key and lets it pass
  // on every request. Added before the plugin's own onRoute hook, which reads this config.
  app.addHook("onRoute", (route) => {
    if (!isThrottledRoute(route.url)) route.config = { ...route.config, rateLimit: false };
  });
  await app.register(rateLimit, {
    global: true,
    max: options.perMinute,
    timeWindow: 60_000,
    // With Redis down a request is let through rather than answered 500: the limit is
    // shared protection, and an outage must not take the API with it (decision 004).
    ...(options.redis
      ? { redis: options.redis, nameSpace: options.nameSpace ?? "cohort-rl:", skipOnError: true }
      : {}),
    addHeadersOnExceeding: {
      "x-ratelimit-limit": true,
      "x-ratelimit-remaining": true,
      "x-ratelimit-reset": true,
    },
    addHeaders: {
      "x-ratelimit-limit": true,
      "x-ratelimit-remaining": true,
      "x-ratelimit-reset": true,
      "retry-after": true,
    },
    errorResponseBuilder: (_request, context) =>
      new AppError(
        ERROR_CODES.rateLimited,
        429,
        `Too many requests. Please wait ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds and try again.`,
      ),
  });
}

/** A refused event: how long until the window that refused it ends. */
export interface RateRefusal {
  retryAfterSeconds: number;
}

/**
 * A named budget counted in code rather than per route: N events per window per key (a user,
 * an access token). It is the same mechanism as the per-route limits (@fastify/rate-limit's
 * store: Redis with REDIS_URL, one count across instances, in memory otherwise), so there is
 * one way to rate-limit a request. Counts that must survive a restart or be counted together
 * in one statement (sign-in and sign-up throttles) use the database counter of the auth module
 * instead (decision 073).
 */
export interface RateBudget {
  /** Counts one event against `key`; the refusal when it went over the budget, else null. */
  take(request: FastifyRequest, key: string): Promise<RateRefusal | null>;
}

export interface RateBudgetOptions {
  /** Keeps this budget's keys apart from every other budget's. */
  name: string;
  max: number;
  windowMs: number;
}

/** Create once per app (at route registration); `registerRateLimit` must have run. */
export function createRateBudget(app: FastifyInstance, options: RateBudgetOptions): RateBudget {
  const keyOfRequest = new WeakMap<FastifyRequest, string>();
  const limiter = app.createRateLimit({
    max: options.max,
    timeWindow: options.windowMs,
    keyGenerator: (request) => `${options.name}:${keyOfRequest.get(request) ?? ""}`,
  });
  return {
    async take(request, key) {
      keyOfRequest.set(request, key);
      const verdict = await limiter(request);
      if (verdict.isAllowed || !verdict.isExceeded) return null;
      return { retryAfterSeconds: Math.max(1, verdict.ttlInSeconds) };
    },
  };
}
