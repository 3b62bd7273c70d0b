import { formatCount, formatInteger, formatNumber, pluralize } from "./numbers";

/** The run view's number formats (chat, shared sessions): credits to the hundredth, tokens and
 * durations short. */
const credits2 = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** A run's cost, always to the hundredth: "2.00 credits", "1.00 credit". */
export function formatRunCredits(credits: number): string {
  const rounded = Math.round(credits * 100) / 100;
  return `${credits2.format(rounded)} ${pluralize(rounded, "credit")}`;
}

/** Spent against a cap, both to the hundredth: "0.20 of 0.50 credits". */
export function formatSpentOfBudget(spent: number, budget: number): string {
  return `${credits2.format(Math.round(spent * 100) / 100)} of ${formatRunCredits(budget)}`;
}

export function formatTokens(tokens: number): string {
  return formatCount(Math.round(tokens), "token");
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${formatInteger(ms)} ms`;
  const seconds = ms / 1_000;
  if (seconds < 60) return `${formatNumber(seconds, seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${formatInteger(minutes)} min ${formatInteger(Math.floor(seconds % 60))} s`;
}
