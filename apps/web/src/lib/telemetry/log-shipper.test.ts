// @vitest-environment node
import {
  LOG_BUFFER_FLUSH_SIZE,
  LOG_FLUSH_INTERVAL_MS,
  TELEMETRY_MAX_ENTRY_BYTES,
} from "@cohort/contracts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startLogShipper, toWireEntry } from "./log-shipper";
import { createLogger } from "./logger";
import type { SendOptions, SendResult, TelemetryTransport } from "./transport";

interface Sent {
  path: string;
  body: { logs: { message: string; level: string; requestId?: string; data?: unknown }[] };
  options: SendOptions | undefined;
}

function fakeTransport(answer: () => SendResult = () => ({ status: 202 })) {
  const sent: Sent[] = [];
  const transport: TelemetryTransport = {
    send: vi.fn(async (path: string, body: unknown, options?: SendOptions) => {
      sent.push({ path, body: body as Sent["body"], options });
      return answer();
    }),
  };
  return { sent, transport };
}

const quiet = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };

function setup(options: { signedIn?: boolean; answer?: () => SendResult } = {}) {
  const logger = createLogger({
    console: quiet,
    environment: () => ({ url: "https://app.test/" }),
  });
  const { sent, transport } = fakeTransport(options.answer);
  let signedIn = options.signedIn ?? true;
  const shipper = startLogShipper({ logger, transport, isSignedIn: () => signedIn });
  return { logger, sent, shipper, signIn: () => (signedIn = true) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("log shipper", () => {
  it("sends at once on an error, with the request id the entry is about", async () => {
    const { logger, sent, shipper } = setup();
    logger.info("before");
    expect(sent).toHaveLength(0);
    logger.error("Server error", { status: 500, requestId: "req-1", token: "t" });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.path).toBe("/logs");
    expect(sent[0]?.body.logs.map((e) => e.message)).toEqual(["before", "Server error"]);
    expect(sent[0]?.body.logs[1]).toMatchObject({
      requestId: "req-1",
      data: { status: 500, requestId: "req-1", token: "[REDACTED]" },
    });
    shipper.stop();
  });

  it(`sends when ${LOG_BUFFER_FLUSH_SIZE} entries are buffered, not before`, async () => {
    const { logger, sent, shipper } = setup();
    for (let i = 0; i < LOG_BUFFER_FLUSH_SIZE - 1; i++) logger.info(`entry ${i}`);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(0);
    logger.warn("the fiftieth");
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body.logs).toHaveLength(LOG_BUFFER_FLUSH_SIZE);
    shipper.stop();
  });

  it("sends every 30 s, and keeps debug entries in the browser", async () => {
    const { logger, sent, shipper } = setup();
    logger.debug("local only");
    logger.info("shipped");
    await vi.advanceTimersByTimeAsync(LOG_FLUSH_INTERVAL_MS - 1);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body.logs.map((e) => e.message)).toEqual(["shipped"]);
    // Nothing new: the next tick sends nothing.
    await vi.advanceTimersByTimeAsync(LOG_FLUSH_INTERVAL_MS);
    expect(sent).toHaveLength(1);
    shipper.stop();
  });

  it("waits for a signed-in user, then sends what was buffered", async () => {
    const { logger, sent, shipper, signIn } = setup({ signedIn: false });
    logger.error("while signed out");
    await vi.advanceTimersByTimeAsync(LOG_FLUSH_INTERVAL_MS);
    expect(sent).toHaveLength(0);
    signIn();
    await vi.advanceTimersByTimeAsync(LOG_FLUSH_INTERVAL_MS);
    expect(sent[0]?.body.logs.map((e) => e.message)).toEqual(["while signed out"]);
    shipper.stop();
  });

  it("keeps entries for the next flush when a send gets no answer", async () => {
    let status = 0;
    const { logger, sent, shipper } = setup({ answer: () => ({ status }) });
    logger.error("first");
    await vi.advanceTimersByTimeAsync(0);
    status = 202;
    logger.error("second");
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((s) => s.body.logs.map((e) => e.message))).toEqual([
      ["first"],
      ["first", "second"],
    ]);
    shipper.stop();
  });

  it("sends the rest with keepalive when the page unloads", async () => {
    const { logger, sent, shipper } = setup();
    logger.info("last words");
    shipper.flushOnUnload();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.options).toEqual({ keepalive: true });
    expect(sent[0]?.body.logs.map((e) => e.message)).toEqual(["last words"]);
    shipper.stop();
  });
});

describe("toWireEntry", () => {
  it("cuts an entry to the server's caps instead of losing the batch", () => {
    const wire = toWireEntry({
      timestamp: "2026-11-23T00:00:00.000Z",
      level: "error",
      message: "m".repeat(5_000),
      data: { blob: "x".repeat(20_000), nested: { apiKey: "sk" } },
    });
    expect(wire.message).toHaveLength(2_000);
    expect(JSON.stringify(wire).length).toBeLessThanOrEqual(TELEMETRY_MAX_ENTRY_BYTES);
    expect(wire.data).toMatchObject({ truncated: true });
    expect(JSON.stringify(wire)).not.toContain('"sk"');
  });
});
