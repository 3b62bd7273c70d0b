import { SIGN_IN_COOKIE } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { argon2 } from "../src/modules/auth/hash-password";
import { DUMMY_HASH } from "../src/modules/auth/verify-password";
import { CSRF_COOKIE } from "../src/platform/csrf";
import { logIn, signUp, TEST_PASSWORD, uniqueEmail } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
});
afterAll(() => t.close());

/** The sign-up form as a new browser sends it, with no agreement: for what the server refuses. */
function postSignUp(fields: {
  email?: string;
  password: string;
  firstName?: string;
  lastName?: string;
}) {
  return new TestClient(t.app).post("/api/user-auth/signup", {
    email: uniqueEmail(),
    firstName: "A",
    lastName: "B",
    ...fields,
  });
}

describe("sign-up", () => {
  it("creates the account, signs it in with an HttpOnly cookie and returns token + profile", async () => {
    const client = new TestClient(t.app);
    const email = uniqueEmail("Mixed.Case");
    const response = await client.post("/api/user-auth/signup", {
      email: `  ${email.toUpperCase()} `,
      password: TEST_PASSWORD,
      firstName: "Grace",
      lastName: "Hopper",
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.success).toBe(true);
    expect(body.token).toMatch(/^[\w-]{43}$/);
    expect(body.user).toMatchObject({
      email: email.toLowerCase(),
      firstName: "Grace",
      lastName: "Hopper",
      displayName: "Grace Hopper",
      photoURL: null,
      emailVerified: false,
      role: "user",
      // The welcome credits (SIGNUP_CREDITS) wait for a verified address (decision 017).
      credits_remaining: 0,
      subscription_tier: "free",
      cochat_access: false,
    });
    expect(new Date(body.user.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const cookie = response.cookies.find((c) => c.name === SIGN_IN_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", value: body.token });
    expect(cookie?.secure).toBeFalsy();
    expect(response.headers["cache-control"]).toBe("no-store");

    const profile = await client.get("/api/users/profile");
    expect(profile.statusCode).toBe(200);
    expect(profile.json().user.id).toBe(body.user.id);
  });

  it("stores passwords as argon2id hashes with the OWASP costs", async () => {
    const { user } = await signUp(t.app);
    const { rows } = await t.db.query<{ password_hash: string }>(
      "SELECT password_hash FROM password_credentials WHERE user_id = $1",
      [user.id],
    );
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(rows[0]?.password_hash).not.toContain(TEST_PASSWORD);
  });

  it("refuses an address that is taken, whatever its case", async () => {
    const { email } = await signUp(t.app);
    const response = await postSignUp({
      email: email.toUpperCase(),
      password: TEST_PASSWORD,
      firstName: "Eve",
      lastName: "Impostor",
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: "email_taken",
      message: "An account with this email already exists.",
    });
  });

  it.each([
    ["short", "abc12", "Password must be at least 6 characters long."],
    ["long", "x".repeat(129), "Password must be at most 128 characters long."],
  ])("refuses a %s password with the hint text", async (_kind, password, message) => {
    const response = await postSignUp({ password });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe("validation_failed");
    expect(error.details.issues).toEqual([{ path: "password", message }]);
  });

  it.each(["password", "123456", "qwerty123", "Iloveyou", "LETMEIN"])(
    "refuses the common password %s",
    async (password) => {
      const response = await postSignUp({ password });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({
        code: "weak_password",
        message: "This password is too common and easy to guess. Please choose a different one.",
      });
    },
  );

  it("refuses the email address as the password", async () => {
    const email = uniqueEmail();
    const response = await postSignUp({ email, password: email });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("weak_password");
  });

  it("validates the form fields", async () => {
    const client = new TestClient(t.app);
    const response = await client.post("/api/user-auth/signup", {
      email: "not-an-email",
      password: TEST_PASSWORD,
      firstName: "",
    });
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.details.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["email", "firstName", "lastName"]));
  });
});

describe("login", () => {
  it("answers the spec's login response and sets the sign-in cookie", async () => {
    const { email, user } = await signUp(t.app);
    const { client, response } = await logIn(t.app, email.toUpperCase(), TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(["success", "token", "user"]);
    expect(body).toMatchObject({ success: true, user: { id: user.id, email } });
    expect(client.cookies.get(SIGN_IN_COOKIE)).toBe(body.token);
  });

  it("gives a wrong password and an unknown address the same 401", async () => {
    const { email } = await signUp(t.app);
    const wrong = await logIn(t.app, email, "not the password at all");
    const unknown = await logIn(t.app, uniqueEmail("nobody"), "not the password at all");
    for (const { response } of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { code: "invalid_credentials", message: "Invalid email or password." },
      });
      expect(response.cookies.find((c) => c.name === SIGN_IN_COOKIE)).toBeUndefined();
    }
  });

  it("checks a password against a hash for unknown addresses too (a dummy hash is verified)", async () => {
    // Counted, not timed: each failure does one argon2 verification, so an unknown address
    // costs what a known one does and response time does not tell them apart.
    const { email } = await signUp(t.app);
    const verify = vi.spyOn(argon2(), "verify");
    try {
      await logIn(t.app, email, "wrong password 123");
      expect(verify).toHaveBeenCalledTimes(1);
      expect(verify.mock.calls[0]?.[0]).not.toBe(DUMMY_HASH);
      verify.mockClear();
      await logIn(t.app, uniqueEmail("nobody"), "wrong password 123");
      expect(verify).toHaveBeenCalledTimes(1);
      expect(verify.mock.calls[0]?.[0]).toBe(DUMMY_HASH);
    } finally {
      verify.mockRestore();
    }
  });

  it("refuses a browser login without the CSRF token", async () => {
    const { email } = await signUp(t.app);
    const client = new TestClient(t.app);
    const response = await client.post(
      "/api/user-auth/login",
      { email, password: TEST_PASSWORD },
      { csrf: false },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe("csrf_invalid");
    expect(response.json().error.message).toContain("CSRF");
  });

  it("also requires CSRF on signup and /api/auth/* calls", async () => {
    const client = new TestClient(t.app);
    for (const url of ["/api/user-auth/signup", "/api/auth/logout", "/api/auth/register"]) {
      const response = await client.post(url, {}, { csrf: false });
      expect(response.statusCode, url).toBe(403);
    }
  });
});

describe("throttling", () => {
  const attacker = "203.0.113.66";
  const from = (app: typeof t.app, ip: string, email: string, password: string) =>
    new TestClient(app, ip).post("/api/user-auth/login", { email, password });

  it("refuses an (account, address) pair after 5 failed logins with 429 and Retry-After", async () => {
    const { email } = await signUp(t.app);
    for (let i = 0; i < 5; i++) {
      expect((await from(t.app, attacker, email, `wrong-password-${i}`)).statusCode).toBe(401);
    }
    const response = await from(t.app, attacker, email, TEST_PASSWORD);
    expect(response.statusCode).toBe(429);
    expect(response.json().error.code).toBe("rate_limited");
    const retryAfter = Number(response.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it("throttles unknown addresses the same way (no enumeration through the limit)", async () => {
    const email = uniqueEmail("ghost");
    for (let i = 0; i < 5; i++) await from(t.app, attacker, email, `wrong-password-${i}`);
    expect((await from(t.app, attacker, email, "anything-else")).statusCode).toBe(429);
  });

  it("locks an address after 20 failed logins across accounts", async () => {
    const inject = (email: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/user-auth/login",
        remoteAddress: "203.0.113.9",
        headers: { authorization: "Bearer api-client" },
        payload: { email, password: "wrong-password" },
      });
    for (let i = 0; i < 20; i++) expect((await inject(uniqueEmail())).statusCode).toBe(401);
    const blocked = await inject(uniqueEmail());
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers["retry-after"])).toBeGreaterThan(0);
    const elsewhere = await logIn(t.app, uniqueEmail(), "wrong-password");
    expect(elsewhere.response.statusCode).toBe(401);
  });

  it("forgets a client's failures after a successful login", async () => {
    const { email } = await signUp(t.app);
    const ip = "203.0.113.77";
    for (let i = 0; i < 4; i++) await from(t.app, ip, email, `wrong-password-${i}`);
    expect((await from(t.app, ip, email, TEST_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await from(t.app, ip, email, `wrong-password-${i}`)).statusCode).toBe(401);
    }
  });
});

describe("sign-ins", () => {
  it("accepts the token as a Bearer header without cookies or CSRF", async () => {
    const { token, user } = await signUp(t.app);
    const api = new TestClient(t.app);
    api.bearer = token;
    expect((await api.get("/api/users/profile")).json().user.id).toBe(user.id);
    const update = await api.put("/api/users/profile", { displayName: "Ada L." });
    expect(update.statusCode).toBe(200);
  });

  it("answers 401 with the sign-in message without a sign-in, or with a bad one", async () => {
    const anonymous = await t.app.inject({ method: "GET", url: "/api/users/profile" });
    const forged = await t.app.inject({
      method: "GET",
      url: "/api/users/profile",
      headers: { authorization: `Bearer ${"A".repeat(43)}` },
    });
    const badCookie = await t.app.inject({
      method: "GET",
      url: "/api/users/profile",
      cookies: { [SIGN_IN_COOKIE]: "nope" },
    });
    for (const response of [anonymous, forged, badCookie]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { code: "unauthorized", message: "Please sign in to continue." },
      });
    }
  });

  it("prefers the bearer header to the cookie", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const response = await t.app.inject({
      method: "GET",
      url: "/api/users/profile",
      headers: { authorization: `Bearer ${bob.token}` },
      cookies: { [SIGN_IN_COOKIE]: alice.token },
    });
    expect(response.json().user.id).toBe(bob.user.id);
  });

  it("ends a sign-in after its idle time and after its absolute lifetime", async () => {
    const idle = await signUp(t.app);
    const old = await signUp(t.app);
    await t.db.query(
      "UPDATE sign_ins SET idle_expires_at = now() - interval '1 second' WHERE user_id = $1",
      [idle.user.id],
    );
    await t.db.query(
      "UPDATE sign_ins SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [old.user.id],
    );
    expect((await idle.client.get("/api/users/profile")).statusCode).toBe(401);
    expect((await old.client.get("/api/users/profile")).statusCode).toBe(401);
  });

  it("slides the idle expiry on use, at most once a minute, never past the absolute one", async () => {
    const { client, user } = await signUp(t.app);
    await t.db.query(
      `UPDATE sign_ins SET last_used_at = now() - interval '2 minutes',
         idle_expires_at = now() + interval '1 hour' WHERE user_id = $1`,
      [user.id],
    );
    await client.get("/api/users/profile");
    const { rows } = await t.db.query<{ idle_days: number; max_days: number }>(
      `SELECT extract(epoch FROM idle_expires_at - now()) / 86400 AS idle_days,
              extract(epoch FROM expires_at - now()) / 86400 AS max_days
       FROM sign_ins WHERE user_id = $1`,
      [user.id],
    );
    expect(Number(rows[0]?.idle_days)).toBeCloseTo(14, 1);
    expect(Number(rows[0]?.max_days)).toBeCloseTo(60, 1);
  });

  it("stores only a hash of the token", async () => {
    const { token, user } = await signUp(t.app);
    const { rows } = await t.db.query<{ token_hash: string }>(
      "SELECT token_hash FROM sign_ins WHERE user_id = $1",
      [user.id],
    );
    expect(rows[0]?.token_hash).toBeDefined();
    expect(rows[0]?.token_hash).not.toBe(token);
  });

  it("lists the user's sign-ins and revokes one; another user's is a 404", async () => {
    const { email, client: first } = await signUp(t.app);
    const { client: second } = await logIn(t.app, email, TEST_PASSWORD);
    const list = await second.get("/api/auth/sign-ins");
    expect(list.statusCode).toBe(200);
    const signIns = list.json().sign_ins;
    expect(signIns).toHaveLength(2);
    expect(signIns.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(signIns[0]).toMatchObject({
      id: expect.any(String),
      created_at: expect.any(String),
      last_used_at: expect.any(String),
      user_agent: "lightMyRequest",
      ip: expect.stringMatching(/^(127\.0\.0\.1|198\.51\.100\.\d+)$/),
    });
    const other = signIns.find((s: { current: boolean }) => !s.current);

    const stranger = await signUp(t.app);
    expect((await stranger.client.delete(`/api/auth/sign-ins/${other.id}`)).statusCode).toBe(404);
    expect((await stranger.client.delete("/api/auth/sign-ins/not-a-uuid")).statusCode).toBe(404);
    expect((await first.get("/api/users/profile")).statusCode).toBe(200);

    const revoke = await second.delete(`/api/auth/sign-ins/${other.id}`);
    expect(revoke.statusCode).toBe(200);
    expect((await first.get("/api/users/profile")).statusCode).toBe(401);
    expect((await second.get("/api/users/profile")).statusCode).toBe(200);
    expect((await second.get("/api/auth/sign-ins")).json().sign_ins).toHaveLength(1);
  });
});

describe("logout", () => {
  it("revokes the sign-in, clears the cookie and rotates the CSRF secret", async () => {
    const { client, token } = await signUp(t.app);
    const csrfBefore = client.cookies.get(CSRF_COOKIE);
    const staleToken = await client.fetchCsrf();
    const response = await client.post("/api/auth/logout");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect(client.cookies.has(SIGN_IN_COOKIE)).toBe(false);
    expect(client.cookies.get(CSRF_COOKIE)).toEqual(expect.any(String));
    expect(client.cookies.get(CSRF_COOKIE)).not.toBe(csrfBefore);

    const reused = await t.app.inject({
      method: "GET",
      url: "/api/users/profile",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(reused.statusCode).toBe(401);
    // The old CSRF token belongs to the old secret.
    client.csrfToken = staleToken;
    expect((await client.post("/api/auth/logout")).statusCode).toBe(403);
  });

  it("accepts a body-less call with a JSON content type, as the web client sends it", async () => {
    const { client } = await signUp(t.app);
    const response = await client.request("POST", "/api/auth/logout", undefined, {
      headers: { "content-type": "application/json" },
    });
    expect(response.statusCode).toBe(200);
    expect((await client.get("/api/users/profile")).statusCode).toBe(401);
  });

  it("succeeds for a browser that is already signed out", async () => {
    const client = new TestClient(t.app);
    expect((await client.post("/api/auth/logout")).statusCode).toBe(200);
  });
});

describe("profile", () => {
  it("updates names and photo, keeping fields that are left out", async () => {
    const { client } = await signUp(t.app, { firstName: "Ada", lastName: "Lovelace" });
    const first = await client.put("/api/users/profile", {
      displayName: "Countess",
      photoURL: "https://example.com/ada.png",
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().user).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      displayName: "Countess",
      photoURL: "https://example.com/ada.png",
    });
    const second = await client.put("/api/users/profile", { lastName: "King", avatar: null });
    expect(second.json().user).toMatchObject({
      lastName: "King",
      displayName: "Countess",
      photoURL: null,
    });
    expect((await client.get("/api/users/profile")).json().user.lastName).toBe("King");
  });

  it("refuses a photo that is not an http(s) URL", async () => {
    const { client } = await signUp(t.app);
    const response = await client.put("/api/users/profile", { photoURL: "javascript:alert(1)" });
    expect(response.statusCode).toBe(400);
  });

  it("needs a sign-in", async () => {
    const client = new TestClient(t.app);
    expect((await client.put("/api/users/profile", { firstName: "X" })).statusCode).toBe(401);
  });
});

describe("providers", () => {
  it("reports no Google sign-in when nothing is configured", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/providers" });
    expect(response.json()).toEqual({
      google: false,
      googleMode: null,
      firebase: null,
      welcomeCredits: 50,
    });
  });

  it("answers the Firebase sync with the spec's not-configured text", async () => {
    const client = new TestClient(t.app);
    const response = await client.post("/api/auth/register", {
      uid: "abc",
      email: uniqueEmail(),
      displayName: "X",
      photoURL: null,
      idToken: "x.y.z",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("identity_provider_not_configured");
    expect(response.json().error.message).toBe(
      "Google login is not available - Firebase not configured",
    );
  });

  it("sends the browser back to the login page when Google OIDC is not configured", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/auth/google" });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe("/login?error=google");
  });
});
