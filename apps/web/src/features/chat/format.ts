/** Number formats of the run view: credits to the hundredth, tokens and durations short. */
const credits2 = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const whole = new Intl.NumberFormat("en-US");

export function formatRunCredits(credits: number): string {
  return `${credits2.format(credits)} ${credits === 1 ? "credit" : "credits"}`;
}

export function formatTokens(tokens: number): string {
  return `${whole.format(Math.round(tokens))} ${Math.round(tokens) === 1 ? "token" : "tokens"}`;
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds % 60)} s`;
}

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const dateOnly = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });

/** "just now", "5 minutes ago", "yesterday", then the date. */
export function formatWhen(iso: string, now = Date.now()): string {
  const diff = (Date.parse(iso) - now) / 1_000;
  const abs = Math.abs(diff);
  if (abs < 45) return "just now";
  if (abs < 3_600) return relative.format(Math.round(diff / 60), "minute");
  if (abs < 86_400) return relative.format(Math.round(diff / 3_600), "hour");
  if (abs < 7 * 86_400) return relative.format(Math.round(diff / 86_400), "day");
  return dateOnly.format(new Date(iso));
}
