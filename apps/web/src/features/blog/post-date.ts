const dateFormat = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

/** "November 23, 2026" for a post's YYYY-MM-DD. */
export function formatPostDate(day: string): string {
  return dateFormat.format(new Date(`${day}T00:00:00Z`));
}
