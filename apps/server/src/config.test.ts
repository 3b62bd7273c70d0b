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
});
