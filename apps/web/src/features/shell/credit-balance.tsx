import { formatCredits } from "@cohort/contracts";
import { cn } from "../../components/cn";

/**
 * The credit figure of the app shell, from the profile's credits_remaining. The Credits issue
 * replaces it with the full widget (levels, announcements, refresh).
 */
export function CreditBalance({ credits, className }: { credits: number; className?: string }) {
  return (
    <p className={cn("text-sm text-ink-600", className)} data-testid="credit-balance">
      <span className="font-semibold text-ink-950 tabular-nums">{formatCredits(credits)}</span>{" "}
      {credits === 1 ? "credit" : "credits"}
    </p>
  );
}
