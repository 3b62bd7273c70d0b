import {
  SIMULATED_NOT_CHARGED,
  type TCostEstimate,
  type TCostEstimateQuery,
  type TCreditLimitKind,
} from "@cohort/contracts";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { DialogFrame } from "../../components/dialog-frame";
import { formatRunCredits } from "../../lib/format/runs";
import { useDebounced } from "../../lib/ui/use-debounced";
import { useCostEstimate } from "./chat-api";

const twoPlaces = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "0.80–2.10 credits", or "about 0.80 credits" when the range is one figure. */
export function formatCreditRange(low: number, high: number): string {
  const lo = Math.round(low * 100) / 100;
  const hi = Math.round(high * 100) / 100;
  if (hi <= lo) return `about ${formatRunCredits(lo)}`;
  return `${twoPlaces.format(lo)}–${formatRunCredits(hi)}`;
}

const LIMIT_NAMES: Record<TCreditLimitKind, string> = {
  balance: "your balance",
  workspace_pool: "the team pool",
  member_cap: "your monthly cap here",
  session_budget: "the session's budget",
  personal_limit: "your monthly spending limit",
};

/**
 * The estimate in words (decision 054): free and simulated says so with the would-be cost;
 * a charged run names the wallet that pays; a limit that may stop the run before its upper
 * end is named with what it leaves.
 */
export function describeEstimate(estimate: TCostEstimate): {
  text: string;
  warning: string | null;
} {
  if (estimate.free) {
    return {
      text: estimate.simulated
        ? `${SIMULATED_NOT_CHARGED} (would be ${formatCreditRange(estimate.would_be_low, estimate.would_be_high)})`
        : "Free: your own provider keys answer",
      warning: null,
    };
  }
  const wallet = estimate.wallet.kind === "workspace" ? "the team pool" : "your balance";
  const limit = estimate.limit;
  const warning =
    limit && limit.available < estimate.high
      ? `${capitalize(LIMIT_NAMES[limit.kind])} leaves ${formatRunCredits(Math.max(0, limit.available))}: the run may stop early.`
      : null;
  return {
    text: `Estimated cost: ${formatCreditRange(estimate.low, estimate.high)} from ${wallet}`,
    warning,
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One line: the estimate, or nothing while it is read or when it cannot be had. */
export function CostEstimateLine({
  sessionId,
  query,
  enabled = true,
  className,
}: {
  sessionId: string;
  query: TCostEstimateQuery;
  enabled?: boolean;
  className?: string;
}) {
  const estimate = useCostEstimate(sessionId, query, enabled);
  if (!enabled || !estimate.data) return null;
  const { text, warning } = describeEstimate(estimate.data);
  return (
    <p
      className={cn("text-xs text-ink-600 tabular-nums", className)}
      data-testid="cost-estimate"
      data-free={estimate.data.free || undefined}
    >
      {text}
      {warning ? <span className="block font-medium text-amber-800">{warning}</span> : null}
    </p>
  );
}

/** The composer's estimate, following the draft's length (rounded, so typing asks rarely). */
export function ComposerEstimate({
  sessionId,
  draftLength,
  enabled,
}: {
  sessionId: string;
  draftLength: number;
  enabled: boolean;
}) {
  const chars = useDebounced(Math.ceil(draftLength / 200) * 200, 400);
  return (
    <CostEstimateLine
      sessionId={sessionId}
      query={{ message_chars: chars }}
      enabled={enabled}
      className="px-2 sm:text-right"
    />
  );
}

/**
 * Regenerate and "Run this message again" ask first, with what the new run will probably
 * cost: it is a whole new run, paid again.
 */
export function RunAgainDialog({
  sessionId,
  runId,
  onOpenChange,
  onConfirm,
}: {
  sessionId: string;
  /** The run whose message runs again; null: closed. */
  runId: string | null;
  onOpenChange(open: boolean): void;
  onConfirm(runId: string): void;
}) {
  return (
    <DialogFrame
      open={runId !== null}
      onOpenChange={onOpenChange}
      title="Run this message again?"
      description="The team answers the same message again as a new run. This answer stays."
      testId="run-again-dialog"
    >
      <div className="grid gap-5 px-5 py-5 sm:px-6">
        {runId !== null ? (
          <CostEstimateLine
            sessionId={sessionId}
            query={{ run_id: runId }}
            className="rounded-xl border border-ink-200 bg-ink-50 px-3 py-2 text-sm text-ink-800"
          />
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            onClick={() => {
              if (runId !== null) onConfirm(runId);
              onOpenChange(false);
            }}
          >
            Run again
          </Button>
        </div>
      </div>
    </DialogFrame>
  );
}
