import type { TSpendingLimit } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { Field } from "../../components/form";
import { SectionCard } from "../../components/section-header";
import { toast } from "../../components/toast/toast-store";
import { isApiError } from "../../lib/api/api-error";
import { formatMonth } from "../../lib/format/dates";
import { formatCreditAmount, formatCredits } from "../../lib/format/numbers";
import { parseCap } from "../workspaces/member-usage";
import {
  SPENDING_LIMIT_QUERY_KEY,
  saveSpendingLimit,
  useSpendingLimit,
} from "./spending-limit-api";

/** The refusals' "Raise your limit in Settings" lead here (/settings#spending-limit). */
export const SPENDING_LIMIT_SECTION_ID = "spending-limit";

/** "4.17 of 10 credits spent in December 2026" with a meter, or the month's spend alone. */
function ThisMonth({ limit }: { limit: TSpendingLimit }) {
  const cap = limit.monthly_limit_credits;
  const used = limit.spent_this_month;
  const month = formatMonth(limit.month);
  if (cap === null) {
    return (
      <p className="text-sm text-ink-700" data-testid="spending-this-month">
        {formatCredits(used)} spent in {month}. No limit.
      </p>
    );
  }
  const ratio = cap === 0 ? 1 : Math.min(1, used / cap);
  return (
    <div className="grid gap-1.5" data-testid="spending-this-month">
      <p className="text-sm text-ink-700">
        {formatCreditAmount(used)} of {formatCredits(cap)} spent in {month}
        {limit.held > 0 ? ` (${formatCreditAmount(limit.held)} held for calls in progress)` : ""}.
        {limit.remaining !== null ? ` ${formatCredits(limit.remaining)} left.` : ""}
      </p>
      <span aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-ink-200">
        <span
          className={cn(
            "block h-full",
            ratio >= 0.9 ? "bg-red-500" : ratio >= 0.7 ? "bg-amber-500" : "bg-emerald-500",
          )}
          style={{ width: `${ratio * 100}%` }}
        />
      </span>
    </div>
  );
}

function LimitForm({ limit }: { limit: TSpendingLimit }) {
  const queryClient = useQueryClient();
  const current = limit.monthly_limit_credits;
  const [text, setText] = useState(current === null ? "" : String(current));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (next: number | null) => {
    setError(null);
    setBusy(true);
    try {
      const saved = await saveSpendingLimit(next);
      queryClient.setQueryData(SPENDING_LIMIT_QUERY_KEY, saved);
      setText(saved.monthly_limit_credits === null ? "" : String(saved.monthly_limit_credits));
      toast({
        title:
          saved.monthly_limit_credits === null
            ? "Your monthly spending limit is cleared."
            : `Your monthly spending limit is ${formatCredits(saved.monthly_limit_credits)}.`,
        variant: "success",
      });
    } catch (cause) {
      setError(isApiError(cause) ? cause.message : "The limit could not be saved. Try again.");
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = parseCap(text);
    if (next === "invalid") {
      setError("Give a number of credits, or leave it empty for no limit.");
      return;
    }
    void save(next);
  };

  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2" noValidate>
      <Field
        label="Monthly limit (credits)"
        inputMode="decimal"
        placeholder="No limit"
        value={text}
        onChange={(event) => setText(event.target.value)}
        error={error}
        className="w-52"
      />
      <Button type="submit" disabled={busy}>
        {busy ? "Saving…" : "Save limit"}
      </Button>
      {current !== null ? (
        <Button type="button" variant="outline" disabled={busy} onClick={() => void save(null)}>
          Clear limit
        </Button>
      ) : null}
    </form>
  );
}

/**
 * Settings → Spending limit: a monthly cap on what the user's own calls may spend across every
 * wallet (personal balance and team pools), enforced like a member cap (decision 053).
 */
export function SpendingLimit() {
  const limit = useSpendingLimit();
  const { hash } = useLocation();
  const loaded = limit.data !== undefined;

  useEffect(() => {
    if (loaded && hash === `#${SPENDING_LIMIT_SECTION_ID}`) {
      document.getElementById(SPENDING_LIMIT_SECTION_ID)?.scrollIntoView();
    }
  }, [loaded, hash]);

  return (
    <SectionCard
      anchor={SPENDING_LIMIT_SECTION_ID}
      id="spending-limit-title"
      testId="spending-limit"
      title="Monthly spending limit"
      lead="The most your runs may spend in a calendar month (UTC), from your own credits and every team pool together. A run that reaches it stops there and says so."
    >
      <div className="mt-4 grid gap-4">
        {limit.data ? (
          <>
            <ThisMonth limit={limit.data} />
            <LimitForm key={String(limit.data.monthly_limit_credits)} limit={limit.data} />
          </>
        ) : limit.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Your spending limit could not be loaded.
          </p>
        ) : (
          <p className="text-sm text-ink-500">Loading…</p>
        )}
      </div>
    </SectionCard>
  );
}
