import { SESSION_BUDGET_MAX } from "@cohort/contracts";

/**
 * A session's budget as typed in New session or Edit session: "" is no cap; otherwise credits
 * above 0 and at most SESSION_BUDGET_MAX, kept to the hundredth.
 */
export function parseSessionBudget(text: string): number | null | "invalid" {
  if (text.trim() === "") return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value > SESSION_BUDGET_MAX) return "invalid";
  // Kept to the hundredth first: 0.001 would be a budget of 0, which no run could keep to.
  const credits = Math.round(value * 100) / 100;
  return credits > 0 ? credits : "invalid";
}
