import { describe, expect, it } from "vitest";
import {
  fitsJsonBytes,
  jsonBytesBound,
  TELEMETRY_MAX_ENTRY_BYTES,
  utf8Bytes,
  ZClientLogEntry,
  ZPageViewBody,
} from "./telemetry";

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

  it("bounds an entry's JSON size from above without serialising it", () => {
    const samples: unknown[] = [
      "",
      "plain",
      'quote " and backslash \\',
      "\u0001\u001f control",
      "é€😀",
      "\ud800 lone surrogate",
      -2.2250738585072014e-308,
      Number.NaN,
      true,
      null,
      [],
      [undefined, 1, "a"],
      { a: undefined, b: [{ c: { d: "e" } }], 'k"ey': 1 },
      { ...entry, data: { status: 500, nested: { list: [1, 2, { x: "y" }] } } },
    ];
    for (const value of samples) {
      const exact = utf8Bytes(JSON.stringify(value) ?? "");
      expect(jsonBytesBound(value, Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(exact);
    }
    // Past the limit, or on anything but plain JSON data, it gives up (the caller measures).
    expect(jsonBytesBound({ text: "a".repeat(2_000) }, 8_192)).toBe(Number.POSITIVE_INFINITY);
    expect(jsonBytesBound({ at: new Date(0) }, 8_192)).toBe(Number.POSITIVE_INFINITY);
    expect(jsonBytesBound({ toJSON: () => "x" }, 8_192)).toBe(Number.POSITIVE_INFINITY);
  });

  it("decides the cap exactly at the boundary, whatever the bound says", () => {
    // {"t":"aaa…"} is 8 bytes around the text.
    const at = { t: "a".repeat(TELEMETRY_MAX_ENTRY_BYTES - 8) };
    expect(utf8Bytes(JSON.stringify(at))).toBe(TELEMETRY_MAX_ENTRY_BYTES);
    expect(fitsJsonBytes(at, TELEMETRY_MAX_ENTRY_BYTES)).toBe(true);
    expect(fitsJsonBytes({ t: `${at.t}a` }, TELEMETRY_MAX_ENTRY_BYTES)).toBe(false);
    // Escapes count as what they serialise to: 1,400 control characters are 8,400 bytes.
    expect(fitsJsonBytes({ t: "\u0001".repeat(1_400) }, TELEMETRY_MAX_ENTRY_BYTES)).toBe(false);
    expect(fitsJsonBytes({ t: "\u0001".repeat(1_300) }, TELEMETRY_MAX_ENTRY_BYTES)).toBe(true);
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
