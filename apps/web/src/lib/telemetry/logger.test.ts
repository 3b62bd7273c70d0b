// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { createLogger } from "./logger";

function fakeConsole() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
}

describe("logger", () => {
  const now = () => new Date("2026-11-22T08:00:00.000Z");
  const environment = () => ({ url: "https://app.test/chat/s1", userAgent: "test-agent" });

  it("buffers entries with context and redacts secrets at any depth", () => {
    const logger = createLogger({ console: fakeConsole(), now, environment });
    logger.setContext({ userId: "u1", sessionId: "s1" });
    logger.info("Signed in", { email: "a@b.c", password: "hunter2", nested: { apiKey: "sk-1" } });

    expect(logger.entries()).toEqual([
      {
        timestamp: "2026-11-22T08:00:00.000Z",
        level: "info",
        message: "Signed in",
        url: "https://app.test/chat/s1",
        userAgent: "test-agent",
        userId: "u1",
        sessionId: "s1",
        data: { email: "a@b.c", password: "[REDACTED]", nested: { apiKey: "[REDACTED]" } },
      },
    ]);
  });

  it("echoes only levels at or above echoLevel to the console", () => {
    const out = fakeConsole();
    const logger = createLogger({ console: out, echoLevel: "warn", now, environment });
    logger.debug("quiet");
    logger.info("quiet too");
    logger.warn("Rate limited", { token: "t" });
    expect(out.debug).not.toHaveBeenCalled();
    expect(out.info).not.toHaveBeenCalled();
    expect(out.warn).toHaveBeenCalledWith("[cohort] Rate limited", { token: "[REDACTED]" });
    expect(logger.entries()).toHaveLength(3);
  });

  it("keeps only the newest entries and drains them for sending", () => {
    const logger = createLogger({
      console: fakeConsole(),
      echoLevel: "error",
      bufferLimit: 2,
      now,
      environment,
    });
    const listener = vi.fn();
    logger.subscribe(listener);
    logger.info("one");
    logger.info("two");
    logger.info("three");
    expect(listener).toHaveBeenCalledTimes(3);
    expect(logger.drain().map((entry) => entry.message)).toEqual(["two", "three"]);
    expect(logger.entries()).toEqual([]);
  });
});
