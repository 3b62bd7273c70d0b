import { CREDITS_CRITICAL_THRESHOLD, CREDITS_LOW_THRESHOLD } from "@cohort/contracts";
import { formatCreditAmount, formatCredits } from "../../lib/format/numbers";

/**
 * The credit balance widget's state machine (credit levels, their texts and thresholds),
 * free of React so every rule is unit-tested: the level of a balance, and what a change from
 * one observed balance to the next must tell the user.
 */
export type CreditLevel = "normal" | "low" | "critical";

export function creditLevel(credits: number): CreditLevel {
  if (credits <= CREDITS_CRITICAL_THRESHOLD) return "critical";
  if (credits <= CREDITS_LOW_THRESHOLD) return "low";
  return "normal";
}

/** The inline message under the balance (the error texts); none while the balance is normal. */
export const CREDIT_LEVEL_MESSAGES: Record<CreditLevel, string | null> = {
  normal: null,
  low: "Running low. Consider adding credits.",
  critical: "Critical! Add credits to continue.",
};

/**
 * An unverified account's balance waits for its welcome credits (decision 017): nothing is
 * wrong yet, so the widget says what to do instead of raising the critical alarm (decision 054).
 */
export const VERIFY_FOR_CREDITS_MESSAGE = "Verify your email to receive your free credits.";

/** The level the widget shows: "awaiting" while welcome credits wait for the address. */
export type ShownCreditLevel = CreditLevel | "awaiting";

export function shownCreditLevel(credits: number, pendingWelcome: number): ShownCreditLevel {
  return pendingWelcome > 0 && credits <= CREDITS_LOW_THRESHOLD ? "awaiting" : creditLevel(credits);
}

export const SHOWN_CREDIT_MESSAGES: Record<ShownCreditLevel, string | null> = {
  ...CREDIT_LEVEL_MESSAGES,
  awaiting: VERIFY_FOR_CREDITS_MESSAGE,
};

export const CREDITS_REFRESHED_MESSAGE = "Credits refreshed";
export const CREDITS_REFRESH_FAILED_MESSAGE = "Failed to refresh credits";

export const CRITICAL_TOAST_DURATION_MS = 5_000;
export const LOW_TOAST_DURATION_MS = 4_000;

/** Credits are kept to hundredths; anything finer is floating-point noise ("1,234.5"). */
export { formatCreditAmount };

/** "3 credits", "1 credit", "0.5 credits". */
export const formatCreditCount = formatCredits;

export function criticalToastTitle(credits: number): string {
  return `Critical: Only ${formatCreditAmount(credits)} credits remaining!`;
}

export function lowToastTitle(credits: number): string {
  return `Low credits: ${formatCreditAmount(credits)} remaining`;
}

export interface CreditToast {
  title: string;
  variant: "error" | "warning";
  durationMs: number;
}

export interface CreditChange {
  level: CreditLevel;
  /** For the live region: how much a drop used and what is left; null unless it dropped. */
  announcement: string | null;
  /** Shown only when the balance crosses a threshold downwards, never on every render. */
  toast: CreditToast | null;
}

/** Anything below a hundredth of a credit is rounding, not spending. */
const EPSILON = 0.005;

/**
 * What the user must be told when the balance goes from `previous` to `next`. `previous` is
 * null for the first balance seen (after a page load): that sets the baseline and announces
 * nothing, since nothing changed in front of the user; the inline message still shows the level.
 * A drop across both thresholds at once gets only the critical toast: it supersedes the other.
 */
export function observeCredits(previous: number | null, next: number): CreditChange {
  const level = creditLevel(next);
  if (previous === null || next > previous - EPSILON) {
    return { level, announcement: null, toast: null };
  }
  const used = previous - next;
  const announcement = `Used ${formatCreditCount(used)}. ${formatCreditCount(next)} remaining.`;
  let toast: CreditToast | null = null;
  if (previous > CREDITS_CRITICAL_THRESHOLD && next <= CREDITS_CRITICAL_THRESHOLD) {
    toast = {
      title: criticalToastTitle(next),
      variant: "error",
      durationMs: CRITICAL_TOAST_DURATION_MS,
    };
  } else if (previous > CREDITS_LOW_THRESHOLD && next <= CREDITS_LOW_THRESHOLD) {
    toast = { title: lowToastTitle(next), variant: "warning", durationMs: LOW_TOAST_DURATION_MS };
  }
  return { level, announcement, toast };
}
