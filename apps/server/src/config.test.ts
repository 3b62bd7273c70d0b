import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const tempDir = () => mkdtempSync(path.join(tmpdir(), "cohort-config-"));

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.realtimeTransports).toEqual(["polling"]);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("looks for local model servers on their usual ports unless told otherwise (decision 056)", () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).models.localDiscovery).toEqual({
      enabled: true,
      ports: [
        { port: 11434, name: "Ollama" },
        { port: 1234, name: "LM Studio" },
        { port: 8080, name: "llama.cpp" },
        { port: 8000, name: "vLLM" },
      ],
      timeoutMs: 800,
    });
    const mine = loadConfig({ DATA_DIR: tempDir(), LOCAL_MODEL_PORTS: "4000, 4001=Mine" });
    expect(mine.models.localDiscovery?.ports).toEqual([
      { port: 4000, name: undefined },
      { port: 4001, name: "Mine" },
    ]);
    expect(
      loadConfig({ DATA_DIR: tempDir(), LOCAL_MODEL_DISCOVERY: "0" }).models.localDiscovery
        ?.enabled,
    ).toBe(false);
    const named = loadConfig({
      DATA_DIR: tempDir(),
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
      OPENAI_COMPATIBLE_MODELS: "llama3.1",
    });
    expect(named.models.localDiscovery?.enabled).toBe(false);
    expect(() => loadConfig({ DATA_DIR: tempDir(), LOCAL_MODEL_PORTS: "99999" })).toThrow(
      /LOCAL_MODEL_PORTS/,
    );
  });

  it("names the variable that is wrong", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), PORT: "eighty" })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: "mysql://x" })).toThrow(
      /DATABASE_URL: must be a postgres/,
    );
    expect(() =>
      loadConfig({ DATA_DIR: tempDir(), REALTIME_TRANSPORTS: "carrier-pigeon" }),
    ).toThrow(/REALTIME_TRANSPORTS/);
    expect(() => loadConfig({ DATA_DIR: tempDir(), PORT: "x" })).toThrow(ConfigError);
  });

  it("generates the embedded secrets once and keeps them in DATA_DIR", () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.cookieSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.encryptionKey.length).toBe(32);
    expect(second.cookieSecret).toBe(first.cookieSecret);
    expect(second.encryptionKey.equals(first.encryptionKey)).toBe(true);
  });

  it("requires the secrets in production", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), NODE_ENV: "production" })).toThrow(
      /COOKIE_SECRET: required when NODE_ENV=production/,
    );
  });

  it("marks cookies Secure behind an https PUBLIC_URL", () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: "https://cohort.example/" });
    expect(config.secureCookies).toBe(true);
    expect(config.publicUrl).toBe("https://cohort.example");
  });

  it("parses the accounts settings with their defaults", () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.smtpUrl).toBeUndefined();
    expect(config.mailFrom).toBe("Cohort <no-reply@localhost>");
    expect(config.google).toBeUndefined();
    expect(config.firebase).toBeUndefined();
    expect(config.admin).toBeUndefined();
    expect(config.signInIdleDays).toBe(14);
    expect(config.signInMaxDays).toBe(60);

    const full = loadConfig({
      DATA_DIR: tempDir(),
      GOOGLE_CLIENT_ID: "id",
      GOOGLE_CLIENT_SECRET: "secret",
      FIREBASE_PROJECT_ID: "proj",
      ADMIN_EMAIL: "Admin@Example.com",
      ADMIN_PASSWORD: "long enough",
    });
    expect(full.google).toEqual({
      clientId: "id",
      clientSecret: "secret",
      issuerUrl: "https://accounts.google.com",
    });
    expect(full.firebase?.providers).toEqual(["google"]);
    expect(full.firebase?.emulatorHost).toBeUndefined();
    expect(full.firebase).toMatchObject({
      projectId: "proj",
      authDomain: "proj.firebaseapp.com",
      jwksUrl:
        "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com",
    });
    expect(full.admin).toEqual({ email: "admin@example.com", password: "long enough" });
  });

  it("names the missing half of a pair and bad accounts values", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), GOOGLE_CLIENT_ID: "id" })).toThrow(
      /GOOGLE_CLIENT_SECRET: required together with GOOGLE_CLIENT_ID/,
    );
    expect(() => loadConfig({ DATA_DIR: tempDir(), ADMIN_PASSWORD: "long enough" })).toThrow(
      /ADMIN_EMAIL: required together with ADMIN_PASSWORD/,
    );
    expect(() => loadConfig({ DATA_DIR: tempDir(), SMTP_URL: "http://mail" })).toThrow(/SMTP_URL/);
    expect(() =>
      loadConfig({
        DATA_DIR: tempDir(),
        FIREBASE_PROJECT_ID: "p",
        FIREBASE_PROVIDERS: "google,myspace",
      }),
    ).toThrow(/FIREBASE_PROVIDERS/);
    expect(() =>
      loadConfig({ DATA_DIR: tempDir(), FIREBASE_AUTH_EMULATOR_HOST: "http://localhost:9099" }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
    expect(
      loadConfig({
        DATA_DIR: tempDir(),
        FIREBASE_PROJECT_ID: "p",
        FIREBASE_PROVIDERS: " github , google,github",
        FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
      }).firebase,
    ).toMatchObject({ providers: ["github", "google"], emulatorHost: "127.0.0.1:9099" });
    expect(() =>
      loadConfig({ DATA_DIR: tempDir(), SIGN_IN_IDLE_DAYS: "90", SIGN_IN_MAX_DAYS: "30" }),
    ).toThrow(/SIGN_IN_IDLE_DAYS: must not exceed SIGN_IN_MAX_DAYS/);
  });

  it("stops on a sign-in variable set under its old name, naming the new one", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), SESSION_IDLE_DAYS: "7" })).toThrow(
      /SESSION_IDLE_DAYS: renamed SIGN_IN_IDLE_DAYS/,
    );
  });
});

describe("billing configuration", () => {
  it("runs payments on the dev checkout with 50 signup credits by default", () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.billing).toMatchObject({
      stripe: undefined,
      signupCredits: 50,
      holdTtlMs: 15 * 60_000,
      sweepIntervalMs: 60_000,
    });
    expect(config.billing.webhookSecret).toMatch(/^whsec_dev_/);
  });

  it("starts accounts at 0 credits with Stripe, and needs its webhook secret", () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_y",
      STRIPE_API_BASE: "http://127.0.0.1:12111",
    });
    expect(config.billing.signupCredits).toBe(0);
    expect(config.billing.webhookSecret).toBe("whsec_y");
    expect(config.billing.stripe?.apiBase?.port).toBe("12111");
    expect(() => loadConfig({ DATA_DIR: tempDir(), STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(
      /STRIPE_WEBHOOK_SECRET: required together with STRIPE_SECRET_KEY/,
    );
    expect(() => loadConfig({ DATA_DIR: tempDir(), STRIPE_SECRET_KEY: "pk_live_x" })).toThrow(
      /STRIPE_SECRET_KEY/,
    );
    expect(loadConfig({ DATA_DIR: tempDir(), SIGNUP_CREDITS: "0" }).billing.signupCredits).toBe(0);
  });
});
