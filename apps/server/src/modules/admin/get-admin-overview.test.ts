import { describe, expect, it } from "vitest";
import { utcDays } from "./get-admin-overview";

describe("utcDays", () => {
  it("lists the last n UTC days, oldest first, today included", () => {
    expect(utcDays(3, new Date("2026-03-01T00:30:00Z"))).toEqual([
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
    ]);
  });

  it("counts in UTC whatever the hour", () => {
    expect(utcDays(1, new Date("2026-11-23T23:59:59.999Z"))).toEqual(["2026-11-23"]);
  });
});
