/** "2025-01-01" → "January 1, 2025"; the date is a calendar day, so no time zone shifts it. */
export function formatEffectiveDate(isoDate: string): string {
  const time = Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(time)) return isoDate;
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }).format(time);
}
