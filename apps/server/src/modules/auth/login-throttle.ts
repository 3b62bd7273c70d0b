import type { Queryable } from "../../db/client";
import {
  clearAttempts,
  countAttempts,
  overBudget,
  refundAttempts,
  type ThrottleRule,
} from "./throttle";

const MINUTE = 60_000;
const WHAT = "failed sign-in attempts";

/**
 * The sign-in budget (decision 017, after OWASP's authentication cheat sheet):
 * - a trusted device (device cookie for this account): 5 per 15 minutes for that device,
 *   whatever anyone else does;
 * - any other client: 5 per (account, IP) and 20 per IP per 15 minutes, refused beyond;
 *   and per account, past 100 in an hour from everywhere together, one attempt per
 *   10 seconds — slowed, never locked, so strangers cannot lock the owner out.
 * Every attempt is counted BEFORE the password is checked, in one statement; a correct
 * password forgets the client's own failures and gives its count back to the shared ones.
 */
export const LOGIN_LIMITS = {
  perPair: 5,
  perIp: 20,
  perDevice: 5,
  window: 15 * MINUTE,
  accountCeiling: 100,
  accountWindow: 60 * MINUTE,
  slowEveryMs: 10_000,
} as const;

export interface LoginClient {
  email: string;
  ip: string;
  /** The device cookie's id when it is signed for this email. */
  deviceId: string | null;
}

function rulesFor(client: LoginClient): ThrottleRule[] {
  const email = client.email.toLowerCase();
  const { window } = LOGIN_LIMITS;
  if (client.deviceId) {
    return [
      { key: `login:device:${client.deviceId}`, limit: LOGIN_LIMITS.perDevice, windowMs: window },
    ];
  }
  return [
    { key: `login:pair:${email}|${client.ip}`, limit: LOGIN_LIMITS.perPair, windowMs: window },
    { key: `login:ip:${client.ip}`, limit: LOGIN_LIMITS.perIp, windowMs: window },
    // Counted but never refused by itself: past the ceiling it switches the account to slow.
    {
      key: `login:account:${email}`,
      limit: Number.MAX_SAFE_INTEGER,
      windowMs: LOGIN_LIMITS.accountWindow,
    },
  ];
}

function slowRule(email: string): ThrottleRule {
  return { key: `login:slow:${email.toLowerCase()}`, limit: 1, windowMs: LOGIN_LIMITS.slowEveryMs };
}

export interface LoginAttempt {
  /** The attempt was a correct password: its counts are given back. */
  succeeded(): Promise<void>;
}

/** Counts a sign-in attempt; 429 (counted, nothing verified) when it is over budget. */
export async function beginLoginAttempt(db: Queryable, client: LoginClient): Promise<LoginAttempt> {
  const rules = rulesFor(client);
  const counts = await countAttempts(db, rules);
  const refusal = overBudget(rules, counts, WHAT);
  if (refusal) throw refusal;
  const accountCount = client.deviceId ? 0 : (counts[2] ?? 0);
  if (accountCount > LOGIN_LIMITS.accountCeiling) {
    const slow = [slowRule(client.email)];
    const slowed = overBudget(slow, await countAttempts(db, slow), WHAT);
    if (slowed) throw slowed;
  }
  const [own, ...shared] = rules as [ThrottleRule, ...ThrottleRule[]];
  return {
    // The client's own failures are forgotten; the shared counts (IP, account) lose only
    // this attempt, so one success does not wipe out a stranger's record.
    succeeded: async () => {
      await clearAttempts(db, own);
      await refundAttempts(db, shared);
    },
  };
}
