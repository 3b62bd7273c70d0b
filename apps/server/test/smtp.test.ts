import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";

interface Captured {
  from: string;
  to: string[];
  raw: string;
}

const captured: Captured[] = [];
let smtp: SMTPServer;
let t: TestApp;

beforeAll(async () => {
  // A real SMTP server on a random port that keeps what it receives.
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        captured.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: "Cohort <hello@cohort.test>",
    PUBLIC_URL: "https://app.cohort.test",
  });
  await t.app.ready();
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function waitForCapture(to: string): Promise<Captured> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = captured.find((c) => c.to.includes(to));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no SMTP message to ${to}`);
    await sleep(20);
  }
}

/** Undoes quoted-printable soft line breaks and escapes, enough to read links back. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

describe("SMTP delivery", () => {
  it("sends the verification email through SMTP with text and HTML parts", async () => {
    const { email } = await signUp(t.app);
    const message = await waitForCapture(email);
    expect(message.from).toBe("hello@cohort.test");
    const raw = decodeQuotedPrintable(message.raw);
    expect(raw).toContain("Subject: Confirm your email address for Cohort");
    expect(raw).toMatch(/Content-Type: text\/plain/i);
    expect(raw).toMatch(/Content-Type: text\/html/i);
    expect(raw).toMatch(/https:\/\/app\.cohort\.test\/verify-email\?token=[\w-]{43}/);

    const { rows } = await t.db.query("SELECT 1 FROM dev_outbox");
    expect(rows).toHaveLength(0);
  });

  it("sends the reset email, and the link in it works", async () => {
    const { email } = await signUp(t.app);
    await waitForCapture(email);
    captured.length = 0;
    await new TestClient(t.app).post("/api/user-auth/forgot-password", { email });
    const raw = decodeQuotedPrintable((await waitForCapture(email)).raw);
    const token = /reset-password\?token=([\w-]{43})/.exec(raw)?.[1];
    expect(token).toBeDefined();
    const reset = await new TestClient(t.app).post("/api/user-auth/reset-password", {
      token,
      password: "smtp delivered secret",
    });
    expect(reset.statusCode).toBe(200);
  });
});
