import type { TLedgerReason } from "@cohort/contracts";

/** Pure formatting for the /billing screen (unit-tested; no React, no DOM). */

export const LEDGER_REASON_LABELS: Record<TLedgerReason, string> = {
  signup_grant: "Welcome credits",
  subscription_grant: "Plan credits",
  credit_purchase: "Credit pack",
  usage: "Usage",
  admin_adjustment: "Adjustment",
  opening_balance: "Opening balance",
};

export function ledgerReasonLabel(reason: string): string {
  return LEDGER_REASON_LABELS[reason as TLedgerReason] ?? reason.replaceAll("_", " ");
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** "+100", "−2.5" (a real minus sign), "0". */
export function formatCreditDelta(delta: number): string {
  const rounded = round2(delta);
  const digits = Math.abs(rounded).toLocaleString("en-US", { maximumFractionDigits: 2 });
  if (rounded > 0) return `+${digits}`;
  if (rounded < 0) return `\u2212${digits}`;
  return digits;
}

export function formatNumber(value: number, maximumFractionDigits = 2): string {
  return value.toLocaleString("en-US", { maximumFractionDigits });
}

/** Whole tokens, with k/M above ten thousand so the figure fits a card. */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${formatNumber(tokens / 1_000_000, 1)}M`;
  if (tokens >= 10_000) return `${formatNumber(tokens / 1_000, 1)}k`;
  return Math.round(tokens).toLocaleString("en-US");
}

/** US dollars; sub-cent costs (a few tokens) keep four decimals rather than read as $0.00. */
export function formatCost(usd: number): string {
  if (usd > 0 && usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function formatPrice(usd: number): string {
  return `$${usd.toFixed(2)}`;
}

const dayFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});
const longDayFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

/** A YYYY-MM-DD (UTC) day as "Mar 5"; `long` gives "March 5, 2026". */
export function formatDay(isoDay: string, long = false): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDay;
  return (long ? longDayFormat : dayFormat).format(date);
}

/** A timestamp as a date in the reader's time zone: "March 5, 2026". */
export function formatDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone }).format(date);
}

/** A timestamp with its time: "Mar 5, 2026, 2:04 PM". */
export function formatDateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone,
  }).format(date);
}

/**
 * The top of a bar chart's scale: the smallest 1, 2, 2.5 or 5 × 10^k at or above `max`, so the
 * gridline labels are round numbers. An empty chart still gets a scale of 1.
 */
export function niceCeiling(max: number): number {
  if (!Number.isFinite(max) || max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const candidate = step * magnitude;
    if (candidate >= max - 1e-9) return round2(candidate) || candidate;
  }
  return 10 * magnitude;
}

/** A bar's length as a percentage of the scale, at least a sliver for any non-zero value. */
export function barPercent(value: number, scale: number): number {
  if (value <= 0 || scale <= 0) return 0;
  return Math.max(1.5, Math.min(100, (value / scale) * 100));
}
