// @vitest-environment node
import { describe, expect, it } from "vitest";
import { formatDay } from "../../lib/format/dates";
import { isScrolledToBottom } from "./agreement-modal";

describe("agreement modal helpers", () => {
  it("counts the text as read within 50 px of its bottom", () => {
    const box = { scrollHeight: 2_000, clientHeight: 500 };
    expect(isScrolledToBottom({ ...box, scrollTop: 1_449 })).toBe(false);
    expect(isScrolledToBottom({ ...box, scrollTop: 1_450 })).toBe(true);
    expect(isScrolledToBottom({ ...box, scrollTop: 1_500 })).toBe(true);
    // A text that fits without scrolling is read at once.
    expect(isScrolledToBottom({ scrollHeight: 300, clientHeight: 500, scrollTop: 0 })).toBe(true);
  });

  it("shows the effective date as a calendar day in any time zone", () => {
    expect(formatDay("2025-01-01", true)).toBe("January 1, 2025");
    expect(formatDay("not a date", true)).toBe("not a date");
  });
});
