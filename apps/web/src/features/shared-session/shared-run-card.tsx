import type { TModel } from "@cohort/contracts";
import { AnswerVersions } from "../chat/answer-versions";
import { CopyActions } from "../chat/copy-actions";
import { ModelBadge } from "../chat/model-badge";
import { RunFrame, RunLanes } from "../chat/run-card";
import { PhaseStepper, PlanChecklist, RunStatusBadge, RunTotals } from "../chat/run-parts";
import type { RunView } from "../chat/run-state";

/** A shared page knows no catalogue (a viewer may be signed out): runs name their models. */
const NO_MODELS: Map<string, TModel> = new Map();

/**
 * A run as a share shows it: the chat screen's parts (plan, lanes, critic, answer with its
 * sources), read-only (no chat actions in context) and without the owner's memories and
 * memory proposals; totals only when the owner shared costs.
 */
export function SharedRunCard({
  run,
  showCosts,
  askedBy,
}: {
  run: RunView;
  showCosts: boolean;
  askedBy: string | null;
}) {
  const coordinator = run.plan?.coordinator;
  return (
    <RunFrame run={run}>
      <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
          <span className="font-semibold text-ink-950">Coordinator</span>
          {coordinator || run.coordinatorModel ? (
            <ModelBadge
              name={coordinator?.model_name ?? run.coordinatorModel ?? ""}
              provider={coordinator?.provider}
              simulated={coordinator?.simulated}
            />
          ) : null}
          {askedBy ? <span className="text-xs text-ink-500">Asked by {askedBy}</span> : null}
        </div>
        <RunStatusBadge status={run.status} />
      </header>
      <PhaseStepper run={run} />
      <PlanChecklist run={run} />
      <RunLanes run={run} models={NO_MODELS} />
      <AnswerVersions run={run} models={NO_MODELS}>
        {run.final ? (
          <div className="border-t border-brand-100 px-3 py-1.5">
            <CopyActions text={run.final.text} what="the final answer" />
          </div>
        ) : null}
      </AnswerVersions>
      {run.status === "failed" && run.error ? (
        <p className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
          The run failed: {run.error.message}
        </p>
      ) : null}
      {run.status === "cancelled" ? (
        <p className="rounded-xl border border-ink-200 bg-ink-50 px-4 py-3 text-sm text-ink-700">
          This run was stopped. What the team wrote so far is kept above.
        </p>
      ) : null}
      {showCosts ? (
        <div className="border-t border-ink-100 pt-3">
          <RunTotals run={run} />
        </div>
      ) : null}
    </RunFrame>
  );
}
