import { ERROR_CODES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";

/**
 * Fixed-window counters in the database, so every instance enforces the same budget and a
 * restart forgets nothing. Keys name what is counted: `login:account:<email>`, `login:ip:<ip>`.
 */
export interface ThrottleRule {
  key: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const THROTTLE = {
  loginPerAccount: (email: string): ThrottleRule => ({
    key: `login:account:${email}`,
    limit: 5,
    windowMs: 15 * MINUTE,
  }),
  loginPerIp: (ip: string): ThrottleRule => ({
    key: `login:ip:${ip}`,
    limit: 20,
    windowMs: 15 * MINUTE,
  }),
  resetPerAddress: (email: string): ThrottleRule => ({
    key: `reset:account:${email}`,
    limit: 3,
    windowMs: HOUR,
  }),
  resetPerIp: (ip: string): ThrottleRule => ({ key: `reset:ip:${ip}`, limit: 20, windowMs: HOUR }),
  verifyResendPerUser: (userId: string): ThrottleRule => ({
    key: `verify:user:${userId}`,
    limit: 3,
    windowMs: HOUR,
  }),
} as const;

function windowOf(rule: ThrottleRule, now: number) {
  const start = Math.floor(now / rule.windowMs) * rule.windowMs;
  return {
    start: new Date(start).toISOString(),
    retryAfterS: Math.ceil((start + rule.windowMs - now) / 1000),
  };
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

function throttled(retryAfterS: number, what: string): AppError {
  return new AppError(
    ERROR_CODES.rateLimited,
    429,
    `Too many ${what}. Please try again in ${describeWait(retryAfterS)}.`,
    { retryAfter: retryAfterS },
    { "retry-after": String(retryAfterS) },
  );
}

/** 429 when any rule's budget for the current window is already spent. Counts nothing. */
export async function assertNotThrottled(
  db: Queryable,
  rules: readonly ThrottleRule[],
  what: string,
  now = Date.now(),
): Promise<void> {
  let wait = 0;
  for (const rule of rules) {
    const window = windowOf(rule, now);
    const { rows } = await db.query<{ count: number }>(
      "SELECT count FROM auth_throttle WHERE key = $1 AND window_start = $2",
      [rule.key, window.start],
    );
    if ((rows[0]?.count ?? 0) >= rule.limit) wait = Math.max(wait, window.retryAfterS);
  }
  if (wait > 0) throw throttled(wait, what);
}

/** Counts one event against each rule (an atomic upsert, safe under concurrency). */
export async function countAttempt(
  db: Queryable,
  rules: readonly ThrottleRule[],
  now = Date.now(),
): Promise<void> {
  for (const rule of rules) {
    await db.query(
      `INSERT INTO auth_throttle (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = auth_throttle.count + 1`,
      [rule.key, windowOf(rule, now).start],
    );
  }
  await sweep(db, now);
}

/** Counts the event and refuses it (429) when it goes over any budget. */
export async function consumeAttempt(
  db: Queryable,
  rules: readonly ThrottleRule[],
  what: string,
  now = Date.now(),
): Promise<void> {
  let wait = 0;
  for (const rule of rules) {
    const window = windowOf(rule, now);
    const { rows } = await db.query<{ count: number }>(
      `INSERT INTO auth_throttle (key, window_start, count) VALUES ($1, $2, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET count = auth_throttle.count + 1
       RETURNING count`,
      [rule.key, window.start],
    );
    if ((rows[0]?.count ?? 0) > rule.limit) wait = Math.max(wait, window.retryAfterS);
  }
  await sweep(db, now);
  if (wait > 0) throw throttled(wait, what);
}

/** Forgets a key's counts, e.g. an account's failed logins once it signs in successfully. */
export async function clearAttempts(db: Queryable, rule: ThrottleRule): Promise<void> {
  await db.query("DELETE FROM auth_throttle WHERE key = $1", [rule.key]);
}

let lastSweep = 0;

/** Old windows are useless; each instance clears them at most every ten minutes. */
async function sweep(db: Queryable, now: number): Promise<void> {
  if (now - lastSweep < 10 * MINUTE) return;
  lastSweep = now;
  await db.query("DELETE FROM auth_throttle WHERE window_start < $1", [
    new Date(now - 2 * 24 * HOUR).toISOString(),
  ]);
}
