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
/** A person may fix a typo or two in the address before the account is created. */
const EMAIL_CHECKS_PER_SIGNUP = 3;

export const THROTTLE = {
  resetPerAddress: (email: string): ThrottleRule => ({
    key: `reset:account:${email}`,
    limit: 3,
    windowMs: HOUR,
  }),
  resetPerIp: (ip: string): ThrottleRule => ({ key: `reset:ip:${ip}`, limit: 20, windowMs: HOUR }),
  /** Invitations carry a person's text to any address (decision 052). */
  invitePerInviter: (userId: string): ThrottleRule => ({
    key: `invite:user:${userId}`,
    limit: 20,
    windowMs: HOUR,
  }),
  invitePerAddress: (email: string): ThrottleRule => ({
    key: `invite:address:${email}`,
    limit: 3,
    windowMs: HOUR,
  }),
  verifyResendPerUser: (userId: string): ThrottleRule => ({
    key: `verify:user:${userId}`,
    limit: 3,
    windowMs: HOUR,
  }),
  signupPerIp: (ip: string, perHour: number): ThrottleRule => ({
    key: `signup:ip:${ip}`,
    limit: perHour,
    windowMs: HOUR,
  }),
  /** Sign-up's own address check: a few tries per account one may create (decision 030). */
  emailStatusPerIp: (ip: string, signupsPerHour: number): ThrottleRule => ({
    key: `email-status:ip:${ip}`,
    limit: signupsPerHour * EMAIL_CHECKS_PER_SIGNUP,
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

/**
 * Counts one event against every rule in ONE statement (an atomic multi-row upsert) and
 * returns each rule's count including this event. Counting before the guarded work is what
 * makes a budget hold under concurrency: 100 parallel attempts get counts 1…100, not 100 × 1.
 */
export async function countAttempts(
  db: Queryable,
  rules: readonly ThrottleRule[],
  now = Date.now(),
): Promise<number[]> {
  if (rules.length === 0) return [];
  const params: string[] = [];
  const values = rules.map((rule, i) => {
    params.push(rule.key, windowOf(rule, now).start);
    return `($${2 * i + 1}, $${2 * i + 2}::timestamptz, 1)`;
  });
  const { rows } = await db.query<{ key: string; count: number }>(
    `INSERT INTO auth_throttle (key, window_start, count) VALUES ${values.join(", ")}
     ON CONFLICT (key, window_start) DO UPDATE SET count = auth_throttle.count + 1
     RETURNING key, count`,
    params,
  );
  await sweep(db, now);
  const counts = new Map(rows.map((row) => [row.key, Number(row.count)]));
  return rules.map((rule) => counts.get(rule.key) ?? 0);
}

/** The 429 for the rules whose budget the counts went over, or null when all are within. */
export function overBudget(
  rules: readonly ThrottleRule[],
  counts: readonly number[],
  what: string,
  now = Date.now(),
): AppError | null {
  let wait = 0;
  rules.forEach((rule, i) => {
    if ((counts[i] ?? 0) > rule.limit) wait = Math.max(wait, windowOf(rule, now).retryAfterS);
  });
  return wait > 0 ? throttled(wait, what) : null;
}

/** Counts the event and refuses it (429) when it goes over any budget. */
export async function consumeAttempt(
  db: Queryable,
  rules: readonly ThrottleRule[],
  what: string,
  now = Date.now(),
): Promise<void> {
  const refusal = overBudget(rules, await countAttempts(db, rules, now), what, now);
  if (refusal) throw refusal;
}

/** Gives back one counted event (e.g. a sign-in that turned out to be correct). */
export async function refundAttempts(
  db: Queryable,
  rules: readonly ThrottleRule[],
  now = Date.now(),
): Promise<void> {
  for (const rule of rules) {
    await db.query(
      "UPDATE auth_throttle SET count = count - 1 WHERE key = $1 AND window_start = $2 AND count > 0",
      [rule.key, windowOf(rule, now).start],
    );
  }
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
