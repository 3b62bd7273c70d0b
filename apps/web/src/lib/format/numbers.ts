/**
 * The one way the web app writes numbers (decision 032): every figure goes through
 * Intl.NumberFormat and every counted noun through Intl.PluralRules, so "$1,999.90",
 * "5,000 credits" and "1 request" read the same on every screen. Pure: no React, no DOM.
 */
const LOCALE = "en-US";

const numberFormats = new Map<string, Intl.NumberFormat>();
/** Intl formats are costly to build; each set of options is built once. */
function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, options);
    numberFormats.set(key, format);
  }
  return format;
}

const plurals = new Intl.PluralRules(LOCALE);

/** A noun's forms: "request" / "requests"; `other` defaults to `one` + "s". */
export interface Noun {
  one: string;
  other?: string;
}

/** The form of `noun` that goes with `count` ("1 request", "0 requests", "1.5 credits"). */
export function pluralize(count: number, noun: Noun | string): string {
  const forms = typeof noun === "string" ? { one: noun } : noun;
  return plurals.select(count) === "one" ? forms.one : (forms.other ?? `${forms.one}s`);
}

/** Grouped, at most `maximumFractionDigits` decimals: "12,345.6". */
export function formatNumber(value: number, maximumFractionDigits = 2): string {
  return numberFormat({ maximumFractionDigits }).format(value);
}

/** Whole and grouped: "12,346". */
export function formatInteger(value: number): string {
  return numberFormat({ maximumFractionDigits: 0 }).format(value);
}

/** "1 request", "2,048 requests", "1 sign-in": the number grouped, the noun agreeing. */
export function formatCount(count: number, noun: Noun | string, maximumFractionDigits = 0): string {
  return `${formatNumber(count, maximumFractionDigits)} ${pluralize(count, noun)}`;
}

/** A credit amount (hundredths at most): "1,234.5". */
export function formatCreditAmount(credits: number): string {
  return formatNumber(Math.round(credits * 100) / 100);
}

const CREDIT: Noun = { one: "credit", other: "credits" };

/** "1 credit", "5,000 credits", "0.5 credits". */
export function formatCredits(credits: number): string {
  const rounded = Math.round(credits * 100) / 100;
  return `${formatCreditAmount(rounded)} ${pluralize(rounded, CREDIT)}`;
}

/** A change of the balance: "+100", "−2.5" (a real minus sign), "0". */
export function formatCreditDelta(delta: number): string {
  const rounded = Math.round(delta * 100) / 100;
  const digits = formatCreditAmount(Math.abs(rounded));
  if (rounded > 0) return `+${digits}`;
  if (rounded < 0) return `\u2212${digits}`;
  return digits;
}

/**
 * US dollars: "$1,999.90". A positive amount under a cent (the list price of a few tokens)
 * keeps up to four decimals ("$0.0012") rather than read as "$0.00".
 */
export function formatUsd(usd: number): string {
  const subCent = usd > 0 && usd < 0.005;
  return numberFormat({
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: subCent ? 4 : 2,
  }).format(usd);
}

/** A big count in a small space: "950", "12.3K", "4.5M". */
export function formatCompact(value: number): string {
  return numberFormat({ notation: "compact", maximumFractionDigits: 1 }).format(value);
}

/** A share as a percentage: 0.256 → "25.6%". */
export function formatPercent(fraction: number, maximumFractionDigits = 1): string {
  return numberFormat({ style: "percent", maximumFractionDigits }).format(fraction);
}

/** Milliseconds: "850 ms"; seconds from one second on: "1.5 s", "42 s". */
export function formatMilliseconds(ms: number): string {
  if (ms < 1_000) return `${formatInteger(ms)} ms`;
  const seconds = ms / 1_000;
  return `${formatNumber(seconds, seconds < 10 ? 1 : 0)} s`;
}
