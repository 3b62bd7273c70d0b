import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { toast } from "../../components/toast/toast-store";
import { pluralize } from "../../lib/format/numbers";
import {
  CREDITS_REFRESH_FAILED_MESSAGE,
  CREDITS_REFRESHED_MESSAGE,
  formatCreditAmount,
  SHOWN_CREDIT_MESSAGES,
  type ShownCreditLevel,
  shownCreditLevel,
} from "./credit-levels";
import { refreshCredits } from "./credit-sync";

const levelStyles: Record<ShownCreditLevel, { box: string; figure: string; dot: string }> = {
  normal: { box: "border-ink-200 bg-ink-50", figure: "text-ink-950", dot: "bg-emerald-500" },
  awaiting: { box: "border-brand-200 bg-brand-50", figure: "text-ink-950", dot: "bg-brand-500" },
  low: { box: "border-amber-300 bg-amber-50", figure: "text-amber-900", dot: "bg-amber-500" },
  critical: { box: "border-red-300 bg-red-50", figure: "text-red-800", dot: "bg-red-600" },
};

const messageStyles: Record<ShownCreditLevel, string> = {
  normal: "",
  awaiting: "text-brand-800",
  low: "text-amber-900",
  critical: "text-red-800",
};

function RefreshCreditsButton({ reload }: { reload: () => Promise<unknown> }) {
  const [pending, setPending] = useState(false);
  const refresh = async () => {
    setPending(true);
    try {
      await reload();
      toast({ title: CREDITS_REFRESHED_MESSAGE, variant: "success" });
    } catch {
      toast({ title: CREDITS_REFRESH_FAILED_MESSAGE, variant: "error" });
    } finally {
      setPending(false);
    }
  };
  return (
    <Button
      variant="outline"
      size="sm"
      className="w-full"
      onClick={refresh}
      disabled={pending}
      aria-busy={pending || undefined}
    >
      {pending ? "Refreshing…" : "Refresh credits"}
    </Button>
  );
}

/**
 * The shell's credit balance widget (the UI states and the error texts): the balance, coloured by level, the
 * level's inline message, the way to more credits and, at 0, a refresh button. Drops are
 * announced and toasted once for the shell by `useCreditWatch`, not here.
 */
export function CreditBalance({
  credits,
  pendingWelcome = 0,
  label = "Credits",
  addCreditsTo = "/billing",
  reload = refreshCredits,
  note,
}: {
  credits: number;
  /** Welcome credits waiting for the email address to be verified (0: none). */
  pendingWelcome?: number;
  /** "Team pool" in a team workspace (decision 040). */
  label?: string;
  /** Where "Add credits" leads; null hides it (a member cannot buy for the team). */
  addCreditsTo?: string | null;
  /** What "Refresh credits" asks again: the profile, or the team's pool. */
  reload?: () => Promise<unknown>;
  /** A line under the balance, e.g. the member's monthly cap. */
  note?: ReactNode;
}) {
  const level = shownCreditLevel(credits, pendingWelcome);
  const styles = levelStyles[level];
  const message = SHOWN_CREDIT_MESSAGES[level];
  return (
    <section
      aria-label="Credit balance"
      className={cn("grid gap-2 rounded-xl border p-3", styles.box)}
      data-testid="credit-balance"
      data-level={level}
    >
      <div className="flex items-baseline justify-between gap-2">
        <p className="text-xs font-medium tracking-wide text-ink-600 uppercase">{label}</p>
        {addCreditsTo === null ? null : (
          <Link
            to={addCreditsTo}
            className="rounded text-xs font-semibold text-brand-700 hover:underline"
            aria-label={
              addCreditsTo === "/billing" ? "Add credits on the billing page" : `Add ${label}`
            }
          >
            Add credits
          </Link>
        )}
      </div>
      <p className="flex items-center gap-2">
        <span aria-hidden="true" className={cn("size-2 shrink-0 rounded-full", styles.dot)} />
        <span
          className={cn("text-2xl font-bold tracking-tight tabular-nums", styles.figure)}
          data-testid="credit-balance-amount"
        >
          {formatCreditAmount(credits)}
        </span>
        <span className="text-sm text-ink-600">
          {pluralize(Math.round(credits * 100) / 100, "credit")}
        </span>
      </p>
      {message ? (
        <p className={cn("text-xs font-medium", messageStyles[level])} data-testid="credit-message">
          {message}
        </p>
      ) : null}
      {pendingWelcome > 0 ? (
        <p className="text-xs text-ink-700" data-testid="credit-welcome">
          {formatCreditAmount(pendingWelcome)} welcome {pluralize(pendingWelcome, "credit")} come
          with your confirmed address.
        </p>
      ) : null}
      {note ? <p className="text-xs text-ink-700">{note}</p> : null}
      {credits <= 0 ? <RefreshCreditsButton reload={reload} /> : null}
    </section>
  );
}

/**
 * The mobile header's short form: the balance, coloured by level, linking to /billing. The
 * inline message and the refresh button are in the drawer's full widget.
 */
export function CreditBalanceChip({
  credits,
  pendingWelcome = 0,
  label,
  to = "/billing",
}: {
  credits: number;
  pendingWelcome?: number;
  /** Named for screen readers when it is not the personal balance ("Team pool"). */
  label?: string;
  to?: string;
}) {
  const level = shownCreditLevel(credits, pendingWelcome);
  const styles = levelStyles[level];
  const message = SHOWN_CREDIT_MESSAGES[level];
  const amount = formatCreditAmount(credits);
  const word = pluralize(Math.round(credits * 100) / 100, "credit");
  return (
    <Link
      to={to}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-semibold",
        styles.box,
        styles.figure,
      )}
      aria-label={`${label ? `${label}: ` : ""}${amount} ${word}.${message ? ` ${message}` : ""} ${to === "/billing" ? "Open billing." : "Open workspace settings."}`}
      data-testid="credit-chip"
      data-level={level}
    >
      <span aria-hidden="true" className={cn("size-1.5 rounded-full", styles.dot)} />
      <span className="tabular-nums">{amount}</span>
      <span className="font-medium">{word}</span>
    </Link>
  );
}
