import { describe, expect, it } from "vitest";
import { TELEMETRY_MAX_ENTRY_BYTES, utf8Bytes, ZClientLogEntry, ZPageViewBody } from "./telemetry";

const entry = { timestamp: "2026-11-23T00:00:00.000Z", level: "error", message: "m" } as const;

describe("telemetry payloads", () => {
  it("counts UTF-8 bytes, not characters", () => {
    expect(utf8Bytes("abc")).toBe(3);
    expect(utf8Bytes("é")).toBe(2);
    expect(utf8Bytes("€")).toBe(3);
    expect(utf8Bytes("😀")).toBe(4);
  });

  it("caps one entry's JSON at TELEMETRY_MAX_ENTRY_BYTES, multi-byte text included", () => {
    expect(ZClientLogEntry.safeParse({ ...entry, data: { text: "a".repeat(7_000) } }).success).toBe(
      true,
    );
    // 3,000 euro signs are 3,000 characters but 9,000 bytes.
    const wide = { ...entry, data: { text: "€".repeat(3_000) } };
    expect(utf8Bytes(JSON.stringify(wide))).toBeGreaterThan(TELEMETRY_MAX_ENTRY_BYTES);
    expect(ZClientLogEntry.safeParse(wide).success).toBe(false);
  });

  it("takes one analytics item or a batch of them", () => {
    const view = {
      sessionId: "s",
      pagePath: "/",
      pageTitle: "Cohort",
      referrer: "",
      utmParams: {},
      deviceInfo: {},
      screenInfo: { width: 1, height: 1 },
    };
    expect(ZPageViewBody.safeParse(view).success).toBe(true);
    expect(ZPageViewBody.safeParse([view, view]).success).toBe(true);
    expect(ZPageViewBody.safeParse([]).success).toBe(false);
  });
});
