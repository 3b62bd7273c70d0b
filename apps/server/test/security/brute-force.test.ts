/**
 * Advisory class: brute force and lockout (decision 018, findings 2, 3 and 6). The sign-in budget
 * must hold under parallel attempts (it was read before the check and counted after, so 100
 * parallel guesses all went through), must not let strangers lock the owner out (five
 * anonymous failures used to block the right password for everyone for 10 minutes), and
 * sign-up must not be a free supply of accounts and credits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEVICE_COOKIE } from "../../src/modules/auth/device-cookie";
import { LOGIN_LIMITS } from "../../src/modules/auth/login-throttle";
import { linkToken, signUp, TEST_PASSWORD, uniqueEmail, waitForMail } from "../support/accounts";
import { createTestApp, type TestApp } from "../support/app";
import { TestClient } from "../support/client";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_LIMIT_PER_HOUR: "3", SIGNUP_CREDITS: "50" });
});
afterAll(() => t.close());

/** A sign-up that is not limited by the file's small SIGNUP_LIMIT_PER_HOUR (own address). */
let signups = 0;
async function newAccount() {
  signups += 1;
  return signUp(new TestClient(t.app, `192.0.2.${signups}`));
}

function attempt(ip: string, email: string, password: string, cookie?: string) {
  return t.app.inject({
    method: "POST",
    url: "/api/user-auth/login",
    remoteAddress: ip,
    // An API client (Bearer) needs no CSRF token; the throttle is the same for everyone.
    headers: { authorization: "Bearer api-client", ...(cookie ? { cookie } : {}) },
    payload: { email, password },
  });
}

describe("the sign-in budget under concurrency", () => {
  it("lets at most 5 of 100 parallel guesses be checked; the rest get 429", async () => {
    const { email } = await newAccount();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => attempt("203.0.113.10", email, `guess-${i}`)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMITS.perPair);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - LOGIN_LIMITS.perPair);
  });
});

describe("no lockout by strangers", () => {
  it("a stranger's failures from one address do not block the owner elsewhere", async () => {
    const { email } = await newAccount();
    for (let i = 0; i < 10; i++) await attempt("203.0.113.20", email, `guess-${i}`);
    expect((await attempt("203.0.113.20", email, TEST_PASSWORD)).statusCode).toBe(429);
    expect((await attempt("198.51.100.20", email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it("a device that signed in before is not blocked, even from the attacker's address", async () => {
    const owner = await newAccount();
    const signedIn = await attempt("203.0.113.30", owner.email, TEST_PASSWORD);
    const device = signedIn.cookies.find((c) => c.name === DEVICE_COOKIE);
    expect(device).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    const cookie = `${DEVICE_COOKIE}=${device?.value}`;
    // A stranger behind the same NAT exhausts the address's budget for this account…
    for (let i = 0; i < 10; i++) await attempt("203.0.113.30", owner.email, `guess-${i}`);
    expect((await attempt("203.0.113.30", owner.email, TEST_PASSWORD)).statusCode).toBe(429);
    // …and the owner's browser still gets in.
    expect((await attempt("203.0.113.30", owner.email, TEST_PASSWORD, cookie)).statusCode).toBe(
      200,
    );
  });

  it("a device cookie is bound to its account: it does not help with another account", async () => {
    const [a, b] = [await newAccount(), await newAccount()];
    const signedIn = await attempt("203.0.113.40", a.email, TEST_PASSWORD);
    const device = signedIn.cookies.find((c) => c.name === DEVICE_COOKIE);
    const cookie = `${DEVICE_COOKIE}=${device?.value}`;
    for (let i = 0; i < 5; i++) await attempt("203.0.113.40", b.email, `guess-${i}`, cookie);
    expect((await attempt("203.0.113.40", b.email, "guess-x", cookie)).statusCode).toBe(429);
    // A forged cookie is no device at all.
    const forged = `${DEVICE_COOKIE}=${device?.value.split(".")[0]}.forged`;
    expect((await attempt("203.0.113.40", b.email, TEST_PASSWORD, forged)).statusCode).toBe(429);
  });

  it("past the per-account ceiling, strangers are slowed, never locked out for long", async () => {
    const { email } = await newAccount();
    const total = LOGIN_LIMITS.accountCeiling + 5;
    for (let batch = 0; batch < total; batch += 15) {
      await Promise.all(
        Array.from({ length: Math.min(15, total - batch) }, (_, i) =>
          // A fresh address for each guess: the per-address budgets never trip.
          attempt(`10.${Math.floor((batch + i) / 250)}.${(batch + i) % 250}.9`, email, "guess"),
        ),
      );
    }
    const slowed = await attempt("198.51.100.99", email, TEST_PASSWORD);
    expect(slowed.statusCode).toBe(429);
    const retryAfter = Number(slowed.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_LIMITS.slowEveryMs / 1000);
  });

  it("signing in as a normal user at /api/admin/login does not count against the user", async () => {
    const { email } = await newAccount();
    const ip = "203.0.113.50";
    for (let i = 0; i < LOGIN_LIMITS.perPair + 3; i++) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/admin/login",
        remoteAddress: ip,
        headers: { authorization: "Bearer api-client" },
        payload: { email, password: TEST_PASSWORD },
      });
      expect(response.statusCode).toBe(401);
    }
    expect((await attempt(ip, email, TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe("sign-up abuse", () => {
  it("limits accounts per address per hour with 429 and Retry-After", async () => {
    const client = () => new TestClient(t.app, "203.0.113.60");
    for (let i = 0; i < 3; i++) await signUp(client());
    const response = await client().post("/api/user-auth/signup", {
      email: uniqueEmail(),
      password: TEST_PASSWORD,
      firstName: "Too",
      lastName: "Many",
    });
    expect(response.statusCode).toBe(429);
    expect(response.json().error.code).toBe("rate_limited");
    expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("grants the welcome credits when the address is verified, once", async () => {
    const { client, user, email } = await newAccount();
    expect(user.credits_remaining).toBe(0);
    const token = linkToken(await waitForMail(t.app, email), "/verify-email");
    expect((await client.post("/api/user-auth/verify-email", { token })).statusCode).toBe(200);
    const profile = (await client.get("/api/users/profile")).json().user;
    expect(profile).toMatchObject({ emailVerified: true, credits_remaining: 50 });
    const ledger = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM credit_ledger WHERE user_id = $1 AND reason = 'signup_grant'",
      [user.id],
    );
    expect(ledger.rows[0]?.n).toBe(1);
  });
});
