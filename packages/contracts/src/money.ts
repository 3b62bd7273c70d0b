import { z } from "zod";

// ---------------------------------------------------------------------------------------
// Money (docs/decisions/014-run-lifecycle-and-money.md). Inside the server every amount is
// an integer number of hundredths of a credit, so sums and comparisons are exact. The wire
// keeps the spec's decimal credits (`credits_remaining (number)`); `creditsOf` and
// `hundredthsOf` are the only conversions between the two.
// ---------------------------------------------------------------------------------------

/** An amount in hundredths of a credit: 1.25 credits is 125. Always a safe integer. */
export type Hundredths = number & { readonly __brand: "Hundredths" };

export const NO_CREDITS = 0 as Hundredths;

/** Brands an integer count of hundredths; anything else is a bug, so it throws. */
export function hundredths(value: number): Hundredths {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a count of hundredths: ${value}`);
  return value as Hundredths;
}

/** Wire → engine: decimal credits (at most two places, as the schemas allow) to hundredths. */
export function hundredthsOf(credits: number): Hundredths {
  if (!Number.isFinite(credits)) throw new RangeError(`not a credit amount: ${credits}`);
  // Rounds away float noise only: 0.29 * 100 is 28.999999999999996.
  return hundredths(Math.round(credits * 100));
}

/** Engine → wire: hundredths to the decimal credits the spec's payloads carry. */
export function creditsOf(amount: Hundredths): number {
  return amount / 100;
}

/**
 * The one rounding rule for prices: a price in credits with any fraction of a hundredth is
 * charged as the next whole hundredth, so worst cases (holds) and settled costs round the
 * same way and a settled cost never exceeds the worst case of the same call.
 */
export function ceilToHundredths(rawCredits: number): Hundredths {
  if (!Number.isFinite(rawCredits)) throw new RangeError(`not a price: ${rawCredits}`);
  // The epsilon keeps float noise (0.1 + 0.2) from rounding a whole hundredth up.
  return rawCredits <= 0 ? NO_CREDITS : hundredths(Math.ceil(rawCredits * 100 - 1e-9));
}

export function addHundredths(...amounts: readonly Hundredths[]): Hundredths {
  let total = 0;
  for (const amount of amounts) total += amount;
  return total as Hundredths;
}

/** a − b, never below zero (what is left of a budget or a balance). */
export function leftOf(a: Hundredths, b: Hundredths): Hundredths {
  return (a > b ? a - b : 0) as Hundredths;
}

export function minHundredths(a: Hundredths, b: Hundredths): Hundredths {
  return (a < b ? a : b) as Hundredths;
}

const creditsFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** "1,234.5" — for messages; the web formats its own labels from the wire's decimals. */
export function formatHundredths(amount: Hundredths): string {
  return creditsFormat.format(creditsOf(amount));
}

/** A credit amount on the wire: a decimal number of credits with at most two places. */
export const ZCreditAmount = z
  .number()
  .finite()
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, {
    error: "use at most two decimal places",
  });
