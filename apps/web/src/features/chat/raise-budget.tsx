import { SESSION_BUDGET_MAX, type TSession } from "@cohort/contracts";
import { useId, useState } from "react";
import { Button } from "../../components/button";
import { isApiError } from "../../lib/api/api-error";
import { formatNumber } from "../../lib/format/numbers";
import { formatRunCredits } from "../../lib/format/runs";
import { updateSession } from "./chat-api";

/**
 * Raises a session's credit budget where the refusal is shown (decision 031): the run's
 * failure or the message that could not be sent. A suggested cap is filled in: twice the
 * current one, at least what was spent plus the step's worst case when it is known.
 */
export function RaiseBudget({
  session,
  required,
  onRaised,
}: {
  session: Pick<TSession, "id" | "budget_credits" | "spent_credits">;
  /** The worst case of the step that was refused, when known. */
  required?: number | undefined;
  onRaised(session: TSession): void;
}) {
  const id = useId();
  const current = session.budget_credits ?? 0;
  const suggested = Math.max(current * 2, session.spent_credits + (required ?? 0) + 1, 1);
  const [value, setValue] = useState(String(Math.ceil(suggested)));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [raised, setRaised] = useState<number | null>(null);

  const submit = async () => {
    const credits = Number(value);
    if (!Number.isFinite(credits) || credits <= current || credits > SESSION_BUDGET_MAX) {
      setError(
        `Enter a budget above the current ${formatRunCredits(current)} (at most ${formatNumber(SESSION_BUDGET_MAX)}).`,
      );
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { session: updated } = await updateSession(session.id, {
        budget_credits: Math.round(credits * 100) / 100,
      });
      setRaised(updated.budget_credits);
      onRaised(updated);
    } catch (cause) {
      setError(isApiError(cause) ? cause.message : "The budget could not be changed. Try again.");
    } finally {
      setBusy(false);
    }
  };

  if (raised !== null) {
    return (
      <p role="status" className="mt-1.5 font-semibold" data-testid="budget-raised">
        The budget is now {formatRunCredits(raised)}.
      </p>
    );
  }
  return (
    // Not a <form>: it shows inside the composer's form too, and forms do not nest.
    <fieldset
      aria-label="Raise the session's budget"
      className="mt-2 flex flex-wrap items-end gap-2 border-0 p-0"
      data-testid="raise-budget"
    >
      <label htmlFor={`${id}-budget`} className="grid gap-0.5 text-xs font-semibold">
        New budget (credits)
        <input
          id={`${id}-budget`}
          inputMode="decimal"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            e.stopPropagation();
            void submit();
          }}
          className="w-28 rounded-lg border border-current/30 bg-white px-2 py-1 text-sm font-normal text-ink-950"
        />
      </label>
      <Button
        type="button"
        size="sm"
        variant="outline"
        disabled={busy}
        onClick={() => void submit()}
      >
        {busy ? "Saving…" : "Raise budget"}
      </Button>
      {error ? (
        <p role="alert" className="basis-full text-xs">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
