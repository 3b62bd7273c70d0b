import { isRunActive, type TChatMessage, type TModel } from "@cohort/contracts";
import { type ReactNode, useContext } from "react";
import { Link } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { cn } from "../../components/cn";
import { ChevronRightIcon } from "../../components/icons";
import { formatWhen } from "../../lib/format/dates";
import { formatCount } from "../../lib/format/numbers";
import { ImportedBadge } from "../export/imported-badge";
import { RunMemoryProposals } from "../memory/run-memory-proposals";
import { AnswerVersions } from "./answer-versions";
import { CopyActions } from "./copy-actions";
import { creditRefusalOf, REFUSAL_TITLES, RefusalAction } from "./credit-refusal";
import { KeyRefusedLink } from "./key-refused-link";
import { RunToolsProvider } from "./lane-tools";
import { ModelBadge } from "./model-badge";
import { PlanEditor } from "./plan-editor";
import { QueuedMessages } from "./queued-messages";
import {
  CriticCard,
  LaneCard,
  LaneGrid,
  PhaseStepper,
  PlanChecklist,
  RunStatusBadge,
  RunTotals,
} from "./run-parts";
import { RunSources, UsedMemories } from "./run-sources";
import type { RunView } from "./run-state";
import { ChatActionsContext, StepLane } from "./step-versions";

export function UserMessage({
  message,
  pending = false,
  onEdit,
  pager,
}: {
  message: Pick<TChatMessage, "content" | "created_at">;
  pending?: boolean;
  /** Edit in place (decision 070); absent: the text goes back into the message box. */
  onEdit?: () => void;
  /** ‹ 1/2 › between the message's versions (decision 070). */
  pager?: ReactNode;
}) {
  const actions = useContext(ChatActionsContext);
  return (
    <div className="group flex flex-col items-end gap-1" data-testid="user-message">
      <div
        className={cn(
          "max-w-[min(42rem,90%)] rounded-2xl rounded-br-md bg-brand-600 px-4 py-2.5 text-[15px] leading-6 whitespace-pre-wrap text-white shadow-sm",
          pending && "opacity-70",
        )}
      >
        <p className="break-words">{message.content}</p>
        <p className="mt-1 text-right text-[11px] text-brand-100">
          {pending ? "Sending…" : formatWhen(message.created_at)}
        </p>
      </div>
      {actions && !pending ? (
        <div className="flex items-center gap-1">
          <CopyActions text={message.content} what="your message" />
          <button
            type="button"
            onClick={() => (onEdit ? onEdit() : actions.edit(message.content))}
            disabled={!actions.canStart}
            className="rounded-md px-1.5 py-0.5 text-xs font-semibold text-ink-600 hover:bg-ink-100 hover:text-ink-900 disabled:opacity-50"
            aria-label={onEdit ? "Edit this message" : "Edit this message and send it again"}
          >
            Edit
          </button>
          {pager}
        </div>
      ) : null}
    </div>
  );
}

/** Under a final answer: copy it, or have the team answer the same message again. */
function AnswerActions({ run }: { run: RunView }) {
  const actions = useContext(ChatActionsContext);
  if (!run.final || isRunActive(run.status)) return null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-t border-brand-100 px-3 py-1.5">
      <CopyActions text={run.final.text} what="the final answer" />
      {actions ? (
        <button
          type="button"
          onClick={() => actions.regenerate(run.id)}
          disabled={!actions.canStart}
          className="rounded-md px-2 py-0.5 text-xs font-semibold text-brand-700 hover:bg-brand-50 disabled:text-ink-400"
        >
          Regenerate
        </button>
      ) : null}
    </div>
  );
}

function AgainNote({ again }: { again: boolean }) {
  if (!again) return null;
  return (
    <p className="text-xs font-semibold text-ink-500" data-testid="regenerated">
      Regenerated answer to the same message
    </p>
  );
}

function RunError({ run }: { run: RunView }) {
  const actions = useContext(ChatActionsContext);
  const { user } = useAuth();
  if (run.status === "cancelled") {
    return (
      <p
        className="rounded-xl border border-ink-200 bg-ink-50 px-4 py-3 text-sm text-ink-700"
        data-testid="run-stopped"
      >
        {run.cancelReason === "shutdown"
          ? "The server restarted and stopped this run. What the team wrote so far is kept above."
          : "You stopped this run. What the team wrote so far is kept above."}
      </p>
    );
  }
  if (run.status !== "failed" || !run.error) return null;
  const refusal =
    run.refusal ?? creditRefusalOf(run.error.code, undefined, actions?.session ?? null, user?.id);
  return (
    <div
      role="alert"
      className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
      data-testid="run-error"
    >
      <p className="font-semibold">{refusal ? REFUSAL_TITLES[refusal.limit] : "The run failed"}</p>
      <p className="mt-0.5">{run.error.message}</p>
      <KeyRefusedLink code={run.error.code} className="text-red-900" />
      {refusal && actions ? (
        <RefusalAction
          refusal={refusal}
          session={actions.session}
          onSessionChange={actions.onSessionChange}
        />
      ) : refusal?.limit === "balance" ? (
        <Link to="/billing" className="mt-1.5 inline-block font-semibold text-red-900 underline">
          Add credits on the Billing page
        </Link>
      ) : null}
      {actions && !isRunActive(run.status) ? (
        <button
          type="button"
          onClick={() => actions.regenerate(run.id)}
          disabled={!actions.canStart}
          className="mt-2 rounded-md border border-red-300 px-2 py-0.5 text-xs font-semibold hover:bg-red-100 disabled:opacity-50"
        >
          Run this message again
        </button>
      ) : null}
    </div>
  );
}

/** The whole run: phases, plan, the agents' lanes, the critic, the answer, the cost. */
function RunWork({ run, models }: { run: RunView; models: Map<string, TModel> }) {
  return (
    <div className="grid grid-cols-1 gap-4">
      <UsedMemories run={run} />
      {/* A plan waiting for review is edited here before it starts (decision 069). */}
      {run.status === "planned" && run.plan ? (
        <PlanEditor key={run.review?.id ?? run.id} run={run} models={models} />
      ) : (
        <PlanChecklist run={run} />
      )}
      <QueuedMessages run={run} />
      <RunLanes run={run} models={models} />
    </div>
  );
}

/** The agents' lanes, the Critic's verdict and the revision round (here and in a share). */
export function RunLanes({ run, models }: { run: RunView; models: Map<string, TModel> }) {
  const agentLanes = run.lanes.filter((l) => l.kind !== "revision" && l.rerunOf === null);
  const revisions = run.lanes.filter((l) => l.kind === "revision");
  return (
    <RunToolsProvider run={run}>
      {agentLanes.length > 0 ? (
        <section aria-label="Agents" className="grid grid-cols-1 gap-2">
          <h3 className="text-xs font-semibold tracking-wide text-ink-500 uppercase">
            Agents · {formatCount(agentLanes.length, "lane")}
          </h3>
          <LaneGrid
            lanes={agentLanes}
            renderLane={(lane) => (
              <StepLane key={lane.callId} run={run} lane={lane} models={models} />
            )}
          />
        </section>
      ) : null}
      <CriticCard run={run} />
      {revisions.length > 0 ? (
        <section aria-label="Revision round" className="grid grid-cols-1 gap-2">
          <h3 className="text-xs font-semibold tracking-wide text-ink-500 uppercase">
            Revision round
          </h3>
          <LaneGrid
            lanes={revisions}
            renderLane={(lane) => (
              <LaneCard key={lane.callId} lane={lane} model={models.get(lane.model)} />
            )}
          />
        </section>
      ) : null}
    </RunToolsProvider>
  );
}

function RunHeader({ run, models }: { run: RunView; models: Map<string, TModel> }) {
  const coordinator = run.coordinatorModel ? models.get(run.coordinatorModel) : undefined;
  const planRef = run.plan?.coordinator;
  return (
    <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <span
          className="flex size-8 items-center justify-center rounded-xl bg-ink-950 text-white shadow-sm"
          aria-hidden="true"
        >
          <svg viewBox="0 0 20 20" className="size-4" fill="none" aria-hidden="true">
            <circle cx="10" cy="5" r="2.25" fill="currentColor" />
            <circle cx="4.5" cy="14.5" r="2.25" fill="currentColor" />
            <circle cx="15.5" cy="14.5" r="2.25" fill="currentColor" />
            <path
              d="M10 7.5v3m0 0l-4 2.5m4-2.5l4 2.5"
              stroke="currentColor"
              strokeWidth="1.5"
              strokeLinecap="round"
            />
          </svg>
        </span>
        <span className="text-sm font-semibold text-ink-950">Coordinator</span>
        {planRef || coordinator || run.coordinatorModel ? (
          <ModelBadge
            name={planRef?.model_name ?? coordinator?.name ?? run.coordinatorModel ?? ""}
            provider={planRef?.provider ?? coordinator?.provider}
            simulated={planRef?.simulated ?? coordinator?.simulated}
          />
        ) : null}
        {run.mode ? (
          <span className="text-xs text-ink-500">
            {run.mode === "manual" ? "Manual team" : "Automatic team"}
            {run.planRepaired ? " · plan repaired" : ""}
          </span>
        ) : null}
        {run.resumes ? (
          <span
            className="text-xs text-ink-500"
            data-testid="run-resumed"
            title="Its server stopped mid-run; the run went on from its last completed step once a server took it up again. Completed steps were kept and not charged again."
          >
            · resumed after a server stop{run.resumes > 1 ? ` (${run.resumes}×)` : ""}
          </span>
        ) : null}
      </div>
      <span className="flex items-center gap-2">
        {run.imported ? <ImportedBadge /> : null}
        <RunStatusBadge status={run.status} />
      </span>
    </header>
  );
}

/**
 * A run's frame wherever one is shown (the chat, a share): its sources in context, and the
 * section that names it and says its status. The open card by default.
 */
export function RunFrame({
  run,
  label = "Run",
  className = "grid grid-cols-1 gap-4 rounded-3xl border border-ink-200 bg-white/80 p-3 shadow-sm sm:p-5",
  children,
}: {
  run: RunView;
  label?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <RunSources run={run}>
      <section
        aria-label={label}
        data-testid="run"
        data-run-id={run.id}
        data-status={run.status}
        className={className}
      >
        {children}
      </section>
    </RunSources>
  );
}

interface RunCardProps {
  run: RunView;
  models: Map<string, TModel>;
  /** A regenerated answer to the same message: says so above it. */
  again?: boolean;
}

export function RunCard({ run, models, again = false }: RunCardProps) {
  return (
    <RunFrame run={run}>
      <AgainNote again={again} />
      <RunHeader run={run} models={models} />
      <PhaseStepper run={run} />
      <RunWork run={run} models={models} />
      <AnswerVersions run={run} models={models}>
        <AnswerActions run={run} />
      </AnswerVersions>
      <RunError run={run} />
      <RunMemoryProposals runId={run.id} status={run.status} />
      <div className="border-t border-ink-100 pt-3">
        <RunTotals run={run} />
      </div>
    </RunFrame>
  );
}

/** An earlier run: the answer stays readable, the team's work folds away. */
export function CollapsedRun({ run, models, again = false }: RunCardProps) {
  // The same count as the open run's "Agents · N lanes" heading (the Critic's lane included).
  const lanes = run.lanes.filter((l) => l.kind !== "revision" && l.rerunOf === null).length;
  const summary = [
    formatCount(lanes, "lane"),
    run.critic?.score != null ? `critic ${run.critic.score}/10` : null,
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <RunFrame run={run} label="Earlier run" className="grid grid-cols-1 gap-3">
      <AgainNote again={again} />
      <details className="group rounded-2xl border border-ink-200 bg-white shadow-xs">
        <summary className="flex cursor-pointer list-none flex-wrap items-center justify-between gap-2 rounded-2xl px-4 py-2.5 text-sm hover:bg-ink-50 [&::-webkit-details-marker]:hidden">
          <span className="flex items-center gap-2 font-medium text-ink-800">
            <ChevronRightIcon className="size-4 text-ink-500 transition-transform group-open:rotate-90" />
            The team's work
            <span className="font-normal text-ink-500">{summary}</span>
          </span>
          <span className="flex items-center gap-2">
            <RunStatusBadge status={run.status} />
            <RunTotals run={run} />
          </span>
        </summary>
        <div className="grid grid-cols-1 gap-4 border-t border-ink-100 p-3 sm:p-4">
          <PhaseStepper run={run} />
          <RunWork run={run} models={models} />
        </div>
      </details>
      <AnswerVersions run={run} models={models}>
        <AnswerActions run={run} />
      </AnswerVersions>
      <RunError run={run} />
    </RunFrame>
  );
}
