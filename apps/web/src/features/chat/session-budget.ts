import { SESSION_BUDGET_MAX } from "@cohort/contracts";

/**
 * A session's budget as typed in New session or Edit session: "" is no cap; otherwise credits
 * above 0 and at most SESSION_BUDGET_MAX, kept to the hundredth.
 */
export function parseSessionBudget(text: string): number | null | "invalid" {
  if (text.trim() === "") return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || value > SESSION_BUDGET_MAX) return "invalid";
  return Math.round(value * 100) / 100;
}
