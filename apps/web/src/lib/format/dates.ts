/**
 * The app's one set of date formats (decision 074), as numbers.ts is for numbers: US English,
 * the reader's time zone for moments, UTC for calendar days and months (a day the server
 * names, such as a chart's "2026-03-05", must not shift a day west of Greenwich). A value that
 * is not a date is shown as it came rather than as "Invalid Date".
 */

type Moment = string | number | Date;

const formats = new Map<string, Intl.DateTimeFormat>();

/** One Intl.DateTimeFormat per set of options, made on first use. */
function formatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", options);
    formats.set(key, format);
  }
  return format;
}

function show(value: Moment, options: Intl.DateTimeFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return formatter(options).format(date);
}

/** A moment as a long date: "March 5, 2026". */
export function formatDate(value: Moment): string {
  return show(value, { dateStyle: "long" });
}

/** A moment as a short date: "Mar 5, 2026". */
export function formatShortDate(value: Moment): string {
  return show(value, { dateStyle: "medium" });
}

/** A moment with its time: "Mar 5, 2026, 2:04 PM"; with `seconds`, "Mar 5, 2026, 2:04:09 PM". */
export function formatDateTime(value: Moment, { seconds = false } = {}): string {
  return show(value, { dateStyle: "medium", timeStyle: seconds ? "medium" : "short" });
}

/** A moment of this year, in a small space: "Mar 5, 2:04 PM". */
export function formatDayTime(value: Moment): string {
  return show(value, { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

/** The time of day alone: "2:04 PM". */
export function formatTime(value: Moment): string {
  return show(value, { hour: "numeric", minute: "2-digit" });
}

/** A calendar day "YYYY-MM-DD" (a longer ISO string is cut to its day): "Mar 5"; `long`: "March 5, 2026". */
export function formatDay(isoDay: string, long = false): string {
  const date = new Date(`${isoDay.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDay;
  return formatter(
    long
      ? { dateStyle: "long", timeZone: "UTC" }
      : { month: "short", day: "numeric", timeZone: "UTC" },
  ).format(date);
}

/** A calendar month "YYYY-MM": "December 2026". */
export function formatMonth(isoMonth: string): string {
  const date = new Date(`${isoMonth.slice(0, 7)}-01T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoMonth;
  return formatter({ month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });

/** How long ago, for lists: "just now", "5 minutes ago", "3 hours ago", "yesterday", then "Mar 5". */
export function formatWhen(value: Moment, now: number = Date.now()): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const diff = (date.getTime() - now) / 1_000;
  const abs = Math.abs(diff);
  if (abs < 45) return "just now";
  if (abs < 3_600) return relative.format(Math.round(diff / 60), "minute");
  if (abs < 86_400) return relative.format(Math.round(diff / 3_600), "hour");
  if (abs < 7 * 86_400) return relative.format(Math.round(diff / 86_400), "day");
  return formatter({ month: "short", day: "numeric" }).format(date);
}
