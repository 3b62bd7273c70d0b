import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatDay,
  formatDayTime,
  formatMonth,
  formatShortDate,
  formatTime,
  formatWhen,
} from "./dates";

// A moment built in the machine's own zone reads the same in any zone the test runs in.
const moment = new Date(2026, 2, 5, 14, 4, 9);
// ICU versions differ in the space before "PM" (a narrow no-break space in newer ones).
const plain = (text: string) => text.replace(/\s/g, " ");

describe("date formats", () => {
  it("shows a moment as a date, a date and time, or a time, in the reader's zone", () => {
    expect(formatDate(moment)).toBe("March 5, 2026");
    expect(formatShortDate(moment)).toBe("Mar 5, 2026");
    expect(plain(formatDateTime(moment))).toBe("Mar 5, 2026, 2:04 PM");
    expect(plain(formatDateTime(moment, { seconds: true }))).toBe("Mar 5, 2026, 2:04:09 PM");
    expect(plain(formatDayTime(moment))).toBe("Mar 5, 2:04 PM");
    expect(plain(formatTime(moment))).toBe("2:04 PM");
    expect(formatShortDate(moment.toISOString())).toBe("Mar 5, 2026");
    expect(formatShortDate(moment.getTime())).toBe("Mar 5, 2026");
  });

  it("shows calendar days and months as named, whatever the reader's zone", () => {
    expect(formatDay("2026-03-05")).toBe("Mar 5");
    expect(formatDay("2026-03-05", true)).toBe("March 5, 2026");
    expect(formatDay("2026-01-01T00:00:00.000Z", true)).toBe("January 1, 2026");
    expect(formatMonth("2026-12")).toBe("December 2026");
  });

  it("says how long ago, then the date", () => {
    const now = moment.getTime();
    const ago = (seconds: number) => new Date(now - seconds * 1_000).toISOString();
    expect(formatWhen(ago(10), now)).toBe("just now");
    expect(formatWhen(ago(5 * 60), now)).toBe("5 minutes ago");
    expect(formatWhen(ago(3 * 3_600), now)).toBe("3 hours ago");
    expect(formatWhen(ago(86_400), now)).toBe("yesterday");
    expect(formatWhen(ago(3 * 86_400), now)).toBe("3 days ago");
    expect(formatWhen(new Date(2026, 1, 20, 9, 0), now)).toBe("Feb 20");
  });

  it("shows what is not a date as it came, never 'Invalid Date'", () => {
    expect(formatDate("soon")).toBe("soon");
    expect(formatDateTime("")).toBe("");
    expect(formatDay("2026-13-45")).toBe("2026-13-45");
    expect(formatMonth("later")).toBe("later");
    expect(formatWhen("never")).toBe("never");
  });
});
