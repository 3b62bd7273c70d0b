import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  linkToken,
  logIn,
  randomTestIp,
  signUp,
  TEST_PASSWORD,
  uniqueEmail,
  waitForMail,
} from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";
import { logCollector } from "./support/logs";

const PUBLIC_URL = "https://cohort.test";
const FORGOT_MESSAGE =
  "If an account exists for that address, we have sent a link to reset the password.";
const { lines: logLines, stream: logStream } = logCollector();

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL, LOG_LEVEL: "info" }, { logStream });
  await t.app.ready();
});
afterAll(() => t.close());

async function forgot(email: string, ip = randomTestIp()) {
  return new TestClient(t.app, ip).post("/api/user-auth/forgot-password", { email });
}

async function resetLink(email: string): Promise<string> {
  expect((await forgot(email)).statusCode).toBe(200);
  return linkToken(
    await waitForMail(t.app, email, (m) => m.subject.includes("Reset")),
    "/reset-password",
  );
}

describe("email verification", () => {
  it("mails a working verification link at sign-up and logs it in the dev outbox", async () => {
    const { client, email, user } = await signUp(t.app);
    const mail = await waitForMail(t.app, email);
    expect(mail.subject).toBe("Confirm your email address for Cohort");
    expect(mail.text).toContain("Hi Ada,");
    expect(mail.text).toContain(`${PUBLIC_URL}/verify-email?token=`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/verify-email?token=`);
    expect(mail.html).toContain("<!doctype html>");
    const token = linkToken(mail, "/verify-email");
    const logged = logLines.find((l) => String(l.msg).startsWith("dev outbox") && l.to === email);
    // The line's message carries the link whole for a developer (outside production); its
    // fields are redacted like every log field (decision 051).
    expect(String(logged?.msg)).toContain(`${PUBLIC_URL}/verify-email?token=${token}`);
    expect(JSON.stringify(logged?.links)).not.toContain(token);

    expect(user.emailVerified).toBe(false);
    const verify = await new TestClient(t.app).post("/api/user-auth/verify-email", { token });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({
      success: true,
      message: "Thank you. Your email address is verified.",
    });
    expect((await client.get("/api/users/profile")).json().user.emailVerified).toBe(true);

    const again = await new TestClient(t.app).post("/api/user-auth/verify-email", { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe("invalid_token");
  });

  it("refuses a bogus token and an expired one", async () => {
    const bogus = await new TestClient(t.app).post("/api/user-auth/verify-email", {
      token: "made-up-token-made-up-token-made-up-token00",
    });
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json().error.code).toBe("invalid_token");

    const { email, user } = await signUp(t.app);
    const token = linkToken(await waitForMail(t.app, email), "/verify-email");
    await t.db.query(
      "UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.id],
    );
    const expired = await new TestClient(t.app).post("/api/user-auth/verify-email", { token });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.code).toBe("token_expired");
  });

  it("resends a link to a signed-in, unverified user, a few times an hour at most", async () => {
    const { client, email } = await signUp(t.app);
    await waitForMail(t.app, email);
    const first = await client.post("/api/user-auth/resend-verification");
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe(`We have sent a new verification link to ${email}.`);
    await client.post("/api/user-auth/resend-verification");
    await client.post("/api/user-auth/resend-verification");
    const fourth = await client.post("/api/user-auth/resend-verification");
    expect(fourth.statusCode).toBe(429);
    expect(Number(fourth.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("refuses resending when signed out or already verified", async () => {
    expect(
      (await new TestClient(t.app).post("/api/user-auth/resend-verification")).statusCode,
    ).toBe(401);
    const { client, email } = await signUp(t.app);
    const token = linkToken(await waitForMail(t.app, email), "/verify-email");
    await new TestClient(t.app).post("/api/user-auth/verify-email", { token });
    const response = await client.post("/api/user-auth/resend-verification");
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("email_already_verified");
  });
});

describe("password reset", () => {
  it("answers the same for known and unknown addresses, and mails only the known one", async () => {
    const { email } = await signUp(t.app);
    const nobody = uniqueEmail("nobody");
    const known = await forgot(email);
    const unknown = await forgot(nobody);
    for (const response of [known, unknown]) {
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, message: FORGOT_MESSAGE });
    }
    const mail = await waitForMail(t.app, email, (m) => m.subject === "Reset your Cohort password");
    expect(mail.text).toContain(`${PUBLIC_URL}/reset-password?token=`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/reset-password?token=`);
    await sleep(100);
    const { rows } = await t.db.query('SELECT 1 FROM dev_outbox WHERE "to" = $1', [nobody]);
    expect(rows).toHaveLength(0);
  });

  it("sets the new password, signs every sign-in out, and the link works once", async () => {
    const { email, client, token: signInToken } = await signUp(t.app);
    const { client: otherDevice } = await logIn(t.app, email, TEST_PASSWORD);
    const token = await resetLink(email);

    const reset = await new TestClient(t.app).post("/api/user-auth/reset-password", {
      token,
      password: "a brand new passphrase",
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({
      success: true,
      message: "Your password has been reset. Please sign in with your new password.",
    });
    expect((await client.get("/api/users/profile")).statusCode).toBe(401);
    expect((await otherDevice.get("/api/users/profile")).statusCode).toBe(401);
    const bearer = await t.app.inject({
      method: "GET",
      url: "/api/users/profile",
      headers: { authorization: `Bearer ${signInToken}` },
    });
    expect(bearer.statusCode).toBe(401);

    expect((await logIn(t.app, email, TEST_PASSWORD)).response.statusCode).toBe(401);
    const fresh = await logIn(t.app, email, "a brand new passphrase");
    expect(fresh.response.statusCode).toBe(200);
    // The link came from the mailbox, so the address counts as verified.
    expect(fresh.response.json().user.emailVerified).toBe(true);

    const reused = await new TestClient(t.app).post("/api/user-auth/reset-password", {
      token,
      password: "yet another passphrase",
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe("invalid_token");
  });

  it("voids older reset links once one is used", async () => {
    const { email } = await signUp(t.app);
    const older = await resetLink(email);
    await sleep(5);
    const newer = await forgot(email).then(async () =>
      linkToken(
        await waitForMail(
          t.app,
          email,
          (m) => m.subject.includes("Reset") && !m.text.includes(older),
        ),
        "/reset-password",
      ),
    );
    const client = new TestClient(t.app);
    expect(
      (
        await client.post("/api/user-auth/reset-password", {
          token: newer,
          password: "first new secret",
        })
      ).statusCode,
    ).toBe(200);
    const stale = await client.post("/api/user-auth/reset-password", {
      token: older,
      password: "second new secret",
    });
    expect(stale.statusCode).toBe(400);
  });

  it("refuses bogus and expired tokens", async () => {
    const client = new TestClient(t.app);
    const bogus = await client.post("/api/user-auth/reset-password", {
      token: "not-a-real-token",
      password: "whatever you like",
    });
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json().error.code).toBe("invalid_token");

    const { email, user } = await signUp(t.app);
    const token = await resetLink(email);
    await t.db.query(
      "UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND purpose = 'reset_password'",
      [user.id],
    );
    const expired = await client.post("/api/user-auth/reset-password", {
      token,
      password: "whatever you like",
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toEqual({
      code: "token_expired",
      message: "This password reset link has expired. Request a new one.",
    });
  });

  it("refuses a weak new password without using up the link", async () => {
    const { email } = await signUp(t.app);
    const token = await resetLink(email);
    const client = new TestClient(t.app);
    const weak = await client.post("/api/user-auth/reset-password", {
      token,
      password: "password1",
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.code).toBe("weak_password");
    const short = await client.post("/api/user-auth/reset-password", { token, password: "abc" });
    expect(short.statusCode).toBe(400);
    const good = await client.post("/api/user-auth/reset-password", {
      token,
      password: "a much better secret",
    });
    expect(good.statusCode).toBe(200);
  });

  it("throttles reset requests per address (3 an hour) with 429 and Retry-After", async () => {
    const email = uniqueEmail("flood");
    for (let i = 0; i < 3; i++) expect((await forgot(email)).statusCode).toBe(200);
    const fourth = await forgot(email);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error.code).toBe("rate_limited");
    const retryAfter = Number(fourth.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
  });
});
