import pg from "pg";
import { describe, expect, it } from "vitest";
import { timestampText } from "./client";

const parseDate = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;
const iso = timestampText(parseDate);

describe("timestamptz text as ISO 8601 (statements marked isoTimestamps)", () => {
  it("writes what the driver's Date would, for UTC text with any fraction", () => {
    for (const text of [
      "2026-11-23 04:06:32+00",
      "2026-11-23 04:06:32.5+00",
      "2026-11-23 04:06:32.123+00",
      "2026-11-23 04:06:32.999999+00",
      "2026-01-01 00:00:00.000001+00",
    ]) {
      expect(iso(text)).toBe(parseDate(text).toISOString());
    }
  });

  it("takes the Date path for another session time zone's offset", () => {
    for (const text of ["2026-11-23 09:36:32.25+05:30", "2026-11-22 20:06:32-08"]) {
      expect(iso(text)).toBe(parseDate(text).toISOString());
    }
    expect(iso("2026-11-23 09:36:32.25+05:30")).toBe("2026-11-23T04:06:32.250Z");
  });
});

describe("timestamptz inside JSON (json_agg) as ISO 8601", () => {
  const fromJson = timestampText((text) => new Date(text));

  it("writes what a Date would, for UTC and for other offsets", () => {
    for (const text of [
      "2026-11-23T04:06:32+00:00",
      "2026-11-23T04:06:32.5+00:00",
      "2026-11-23T04:06:32.999999+00:00",
      "2026-11-23T09:36:32.25+05:30",
    ]) {
      expect(fromJson(text)).toBe(new Date(text).toISOString());
    }
    expect(fromJson("2026-11-23T04:06:32.774158+00:00")).toBe("2026-11-23T04:06:32.774Z");
  });
});
