import type { Redis } from "ioredis";

/**
 * CoChat Unlimited costs no credits, so a fair-use limit per user keeps one account from
 * using a provider's whole quota: N messages per hour, counted from the first message of the
 * window. Shared through Redis when REDIS_URL is set (N instances, one limit); in memory
 * otherwise, like the platform's rate limits.
 */
export interface FairUseVerdict {
  allowed: boolean;
  /** Until the window ends; 0 when allowed. */
  retryAfterSeconds: number;
  remaining: number;
}

export interface FairUseLimiter {
  take(userId: string): Promise<FairUseVerdict>;
}

export interface FairUseOptions {
  perHour: number;
  redis?: Redis | undefined;
  prefix?: string;
  now?: () => number;
}

const WINDOW_MS = 60 * 60_000;

// INCR and the window's expiry in one step, so a crash between them cannot leave a counter
// that never expires.
const TAKE_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

export function createFairUseLimiter(options: FairUseOptions): FairUseLimiter {
  const { perHour, redis } = options;
  const now = options.now ?? Date.now;
  const verdict = (count: number, ttlMs: number): FairUseVerdict => ({
    allowed: count <= perHour,
    retryAfterSeconds: count <= perHour ? 0 : Math.max(1, Math.ceil(ttlMs / 1000)),
    remaining: Math.max(0, perHour - count),
  });

  const windows = new Map<string, { count: number; resetAt: number }>();
  const inMemory: FairUseLimiter = {
    async take(userId) {
      const at = now();
      let window = windows.get(userId);
      if (!window || window.resetAt <= at) {
        // Expired windows go when a new one starts, so the map stays as small as the active users.
        if (windows.size > 10_000) {
          for (const [key, value] of windows) if (value.resetAt <= at) windows.delete(key);
        }
        window = { count: 0, resetAt: at + WINDOW_MS };
        windows.set(userId, window);
      }
      window.count += 1;
      return verdict(window.count, window.resetAt - at);
    },
  };
  if (!redis) return inMemory;

  const prefix = `${options.prefix ?? "cohort:"}cochat:fair-use:`;
  return {
    async take(userId) {
      try {
        const [count, ttl] = (await redis.eval(
          TAKE_SCRIPT,
          1,
          `${prefix}${userId}`,
          WINDOW_MS,
        )) as [number, number];
        return verdict(Number(count), Number(ttl));
      } catch {
        // Redis is down: this instance counts on its own until it is back (issue 15).
        return inMemory.take(userId);
      }
    },
  };
}
