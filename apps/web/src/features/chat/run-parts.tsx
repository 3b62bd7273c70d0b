import {
  AGENT_ROLE_NAMES,
  CREDIT_LIMIT_STOP_MESSAGES,
  CRITIC_SCORE_BAR,
  creditsOf,
  describeChecks,
  estimateTokens,
  isRunActive,
  priceCall,
  RUN_STATUS_LABELS,
  SIMULATED_NOT_CHARGED,
  type TAgentRole,
  type TModel,
  type TRunStatus,
} from "@cohort/contracts";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { cn } from "../../components/cn";
import { Markdown } from "../../components/markdown/markdown";
import { roleCopy } from "../../content/agent-roles";
import { formatDuration, formatRunCredits, formatTokens } from "../../lib/format/runs";
import { KeyRefusedLink } from "./key-refused-link";
import { LaneSteer } from "./lane-steer";
import { LaneTools } from "./lane-tools";
import { ModelBadge } from "./model-badge";
import { LanePassages, StepDocuments, StepTools, useRunCitations } from "./run-sources";
import { type LaneView, type PlanStepState, planStepState, type RunView } from "./run-state";

/** The pieces of a run on screen: status, phases, plan checklist, lanes, critic, answer. */

/** One glyph per role, so roles that share an initial (Coder, Critic) never look alike. */
const ROLE_GLYPHS: Record<TAgentRole, ReactNode> = {
  strategist: (
    <>
      <circle cx="10" cy="10" r="6.5" stroke="currentColor" strokeWidth="1.6" />
      <path d="M12.8 7.2l-1.6 4-4 1.6 1.6-4 4-1.6z" fill="currentColor" />
    </>
  ),
  coder: (
    <path
      d="M7.5 6L3.5 10l4 4M12.5 6l4 4-4 4"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  ),
  designer: (
    <>
      <path
        d="M4 16l1-3.5L13.5 4a1.4 1.4 0 012 2L7 14.5 4 16z"
        stroke="currentColor"
        strokeWidth="1.6"
        strokeLinejoin="round"
      />
      <path d="M11.5 6l2 2" stroke="currentColor" strokeWidth="1.6" />
    </>
  ),
  critic: (
    <>
      <circle cx="9" cy="9" r="5" stroke="currentColor" strokeWidth="1.6" />
      <path
        d="M12.7 12.7L16.5 16.5"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
      <path
        d="M6.8 9l1.5 1.5 2.9-3"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </>
  ),
};

export function RoleAvatar({ role, className }: { role: TAgentRole; className?: string }) {
  const copy = roleCopy(role);
  return (
    <span
      aria-hidden="true"
      className={cn(
        "inline-flex size-7 shrink-0 items-center justify-center rounded-lg",
        copy.accent.soft,
        copy.accent.text,
        className,
      )}
    >
      <svg viewBox="0 0 20 20" fill="none" className="size-[60%]" aria-hidden="true">
        {ROLE_GLYPHS[role]}
      </svg>
    </span>
  );
}

const STATUS_LABELS = RUN_STATUS_LABELS;

export function RunStatusBadge({ status }: { status: TRunStatus }) {
  const active = isRunActive(status);
  const tone =
    status === "completed"
      ? "bg-emerald-50 text-emerald-800 ring-emerald-200"
      : status === "failed"
        ? "bg-red-50 text-red-800 ring-red-200"
        : status === "cancelled"
          ? "bg-ink-100 text-ink-700 ring-ink-300"
          : "bg-brand-50 text-brand-800 ring-brand-200";
  return (
    <span
      data-testid="run-status"
      data-status={status}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset",
        tone,
      )}
    >
      {active ? (
        <span aria-hidden="true" className="relative flex size-2">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-brand-400 opacity-75" />
          <span className="relative inline-flex size-2 rounded-full bg-brand-600" />
        </span>
      ) : null}
      {STATUS_LABELS[status]}
    </span>
  );
}

// ---------------------------------------------------------------------------------------
// Phases
// ---------------------------------------------------------------------------------------

type PhaseState = "waiting" | "active" | "done" | "skipped" | "halted";

function phasesOf(run: RunView): { label: string; state: PhaseState }[] {
  const hasReview = run.plan?.steps.some((s) => s.phase === "review") ?? true;
  const order: TRunStatus[] = ["planning", "running", "reviewing", "synthesizing"];
  const reached = (() => {
    if (run.status === "completed") return 4;
    if (isRunActive(run.status))
      return Math.max(0, order.indexOf(run.status === "queued" ? "planning" : run.status));
    // Stopped or failed: where it got to.
    if (run.final) return 3;
    if (run.lanes.some((l) => l.kind !== "agent")) return 2;
    if (run.plan) return 1;
    return 0;
  })();
  const halted = run.status === "failed" || run.status === "cancelled";
  return ["Plan", "Agents", "Review", "Answer"].map((label, index) => {
    if (index === 2 && !hasReview && run.plan) return { label, state: "skipped" };
    if (index < reached) return { label, state: "done" };
    if (index === reached) return { label, state: halted ? "halted" : "active" };
    return { label, state: "waiting" };
  });
}

export function PhaseStepper({ run }: { run: RunView }) {
  const phases = phasesOf(run);
  return (
    <ol
      className="flex flex-wrap items-center gap-1 text-xs font-medium sm:gap-2"
      aria-label="Run phases"
    >
      {phases.map((phase, index) => (
        <li key={phase.label} className="flex min-w-0 items-center gap-1 sm:gap-2">
          {index > 0 ? (
            <span
              aria-hidden="true"
              className={cn(
                "hidden h-px w-6 sm:block",
                phase.state === "waiting" || phase.state === "skipped"
                  ? "bg-ink-200"
                  : "bg-brand-300",
              )}
            />
          ) : null}
          <span
            className={cn(
              "inline-flex items-center gap-1 rounded-full px-2 py-0.5",
              phase.state === "done" && "bg-emerald-50 text-emerald-800",
              phase.state === "active" && "bg-brand-600 text-white shadow-sm",
              phase.state === "waiting" && "text-ink-500",
              phase.state === "skipped" && "text-ink-400 line-through",
              phase.state === "halted" && "bg-ink-100 text-ink-700",
            )}
          >
            {phase.state === "done" ? (
              <svg viewBox="0 0 16 16" aria-hidden="true" className="size-3" fill="none">
                <path
                  d="M3 8.5l3 3 7-7"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              </svg>
            ) : null}
            {phase.label}
            <span className="sr-only">
              {phase.state === "done"
                ? " (done)"
                : phase.state === "active"
                  ? " (in progress)"
                  : phase.state === "halted"
                    ? " (stopped here)"
                    : phase.state === "skipped"
                      ? " (skipped)"
                      : ""}
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}

// ---------------------------------------------------------------------------------------
// Plan checklist
// ---------------------------------------------------------------------------------------

const STEP_STATE_TEXT: Record<PlanStepState, string> = {
  pending: "waiting",
  running: "in progress",
  done: "done",
  failed: "failed",
  stopped: "stopped",
  skipped: "skipped",
};

function StepIcon({ state }: { state: PlanStepState }) {
  switch (state) {
    case "done":
      return (
        <span className="flex size-5 items-center justify-center rounded-full bg-emerald-500 text-white shadow-sm">
          <svg viewBox="0 0 16 16" aria-hidden="true" className="size-3.5" fill="none">
            <path
              d="M3.5 8.5l3 3 6-7"
              stroke="currentColor"
              strokeWidth="2.25"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </span>
      );
    case "running":
      return (
        <span className="flex size-5 items-center justify-center">
          <span className="size-4 animate-spin rounded-full border-2 border-brand-200 border-t-brand-600" />
        </span>
      );
    case "failed":
      return (
        <span className="flex size-5 items-center justify-center rounded-full bg-red-500 text-white">
          <svg viewBox="0 0 16 16" aria-hidden="true" className="size-3" fill="none">
            <path
              d="M4 4l8 8M12 4l-8 8"
              stroke="currentColor"
              strokeWidth="2.25"
              strokeLinecap="round"
            />
          </svg>
        </span>
      );
    case "stopped":
      return (
        <span className="flex size-5 items-center justify-center rounded-full border-2 border-ink-300">
          <span className="size-1.5 rounded-sm bg-ink-400" />
        </span>
      );
    default:
      return <span className="block size-5 rounded-full border-2 border-ink-300 bg-white" />;
  }
}

/**
 * The plan as the coordinator writes it (decision 079): its rationale and the steps so far,
 * under the "planning" line, until the plan itself replaces it.
 */
function PlanForming({ run }: { run: RunView }) {
  const draft = run.planDraft;
  return (
    <section aria-label="Plan being written" aria-busy="true" data-testid="plan-forming">
      <div className="flex items-center gap-2 text-sm text-ink-600" data-testid="plan-pending">
        <span className="size-4 animate-spin rounded-full border-2 border-brand-200 border-t-brand-600" />
        The coordinator is planning who does what…
      </div>
      {draft ? (
        <div className="mt-2 grid grid-cols-1 gap-1.5" aria-live="polite">
          {/* The coordinator's first token: the plan is being written, its words follow. */}
          {!draft.rationale && draft.steps.length === 0 ? (
            <p className="text-xs text-ink-500" data-testid="plan-draft-started">
              Writing the plan…
            </p>
          ) : null}
          {draft.rationale ? (
            <p className="text-xs leading-5 text-ink-500" data-testid="plan-draft-rationale">
              <span className="font-semibold text-ink-600">Why this team: </span>
              {draft.rationale}
            </p>
          ) : null}
          {draft.steps.length > 0 ? (
            <ol className="grid grid-cols-1 gap-1.5">
              {draft.steps.map((step, index) => (
                <li
                  // The draft's steps only grow at the end; their ids may not be written yet.
                  // biome-ignore lint/suspicious/noArrayIndexKey: a draft step is its position
                  key={index}
                  data-testid="plan-draft-step"
                  className="rounded-xl border border-dashed border-ink-200 bg-white px-3 py-2 text-sm text-ink-900"
                >
                  <span className={cn("font-semibold", roleCopy(step.role).accent.text)}>
                    {AGENT_ROLE_NAMES[step.role]}
                  </span>{" "}
                  {step.task}
                </li>
              ))}
            </ol>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

export function PlanChecklist({ run }: { run: RunView }) {
  const plan = run.plan;
  if (!plan) {
    if (!isRunActive(run.status)) return null;
    return <PlanForming run={run} />;
  }
  return (
    <section aria-label="Plan" data-testid="plan-checklist">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="text-xs font-semibold tracking-wide text-ink-500 uppercase">
          Plan · {plan.mode === "manual" ? "your team" : "chosen by the coordinator"}
        </h3>
        {run.planCredits !== null ? (
          <span className="text-xs text-ink-500">Planning {formatRunCredits(run.planCredits)}</span>
        ) : null}
      </div>
      <ol className="mt-2 grid grid-cols-1 gap-1.5">
        {plan.steps.map((step) => {
          const state = planStepState(run, step.id);
          const revised = run.lanes.some((l) => l.stepId === step.id && l.kind === "revision");
          const score = run.critic?.draftScores[step.id];
          return (
            <li
              key={step.id}
              data-testid="plan-step"
              data-state={state}
              className={cn(
                "flex items-start gap-3 rounded-xl border px-3 py-2 transition-colors",
                state === "running" ? "border-brand-200 bg-brand-50/60" : "border-ink-100 bg-white",
              )}
            >
              <span className="mt-0.5">
                <StepIcon state={state} />
              </span>
              <div className="min-w-0 flex-1">
                <p className={cn("text-sm", state === "done" ? "text-ink-600" : "text-ink-900")}>
                  <span className={cn("font-semibold", roleCopy(step.role).accent.text)}>
                    {AGENT_ROLE_NAMES[step.role]}
                  </span>{" "}
                  {step.task}
                  <span className="sr-only"> ({STEP_STATE_TEXT[state]})</span>
                </p>
                <div className="mt-1 flex flex-wrap items-center gap-1.5">
                  <ModelBadge name={step.model_name} simulated={step.simulated} compact />
                  {revised ? (
                    <span className="rounded-md bg-violet-50 px-1.5 py-0.5 text-xs font-medium text-violet-800 ring-1 ring-violet-200 ring-inset">
                      Revised
                    </span>
                  ) : null}
                  {score !== undefined ? (
                    <span className="text-xs text-ink-500">Critic: {score}/10</span>
                  ) : null}
                  {step.depends_on.length > 0 ? (
                    <span className="text-xs text-ink-400">after {step.depends_on.join(", ")}</span>
                  ) : null}
                  <StepDocuments plan={plan} step={step} />
                  <StepTools step={step} />
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      {plan.rationale ? (
        <p className="mt-2 text-xs leading-5 text-ink-500">
          <span className="font-semibold text-ink-600">Why this team: </span>
          {plan.rationale}
        </p>
      ) : null}
      {plan.notes.length > 0 ? (
        <ul className="mt-1 list-disc pl-5 text-xs text-ink-500">
          {plan.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

// ---------------------------------------------------------------------------------------
// Lanes
// ---------------------------------------------------------------------------------------

/**
 * The simulator answered and nothing was charged (decision 053): said instead of a price,
 * with what the call would have cost when charged.
 */
export function notCharged(call: { simulated: boolean | null; credits: number | null }): boolean {
  return call.simulated === true && call.credits === 0;
}

/** "Simulated — not charged (would be 0.42 credits)". */
export function simulatedNote(wouldBe: number | null | undefined): string {
  return wouldBe
    ? `${SIMULATED_NOT_CHARGED} (would be ${formatRunCredits(wouldBe)})`
    : SIMULATED_NOT_CHARGED;
}

/** A lane's cost: exact once settled, else estimated from the text so far and the price. */
export function laneUsage(lane: LaneView, model: TModel | undefined) {
  // A stopped call's usage is an estimate from the text that arrived (older rows say 0).
  const reported = lane.status === "stopped" && !lane.outputTokens ? null : lane.outputTokens;
  const tokens = reported ?? estimateTokens(lane.text);
  // Reported with the call's end (a share without costs has the tokens but not the credits).
  const exact = lane.outputTokens !== null;
  const credits =
    lane.credits ??
    (model ? creditsOf(priceCall(model, { inputTokens: 0, outputTokens: tokens })) : null);
  return { tokens, credits, exact: exact && reported !== null };
}

/** A call stopped where its hold could not grow: its text is kept and charged (decision 053). */
const LIMIT_STOP_STATUS = { label: "Stopped at limit", className: "text-amber-800" };

/** A lane the user skipped (decision 069): it ended on purpose, not by a fault. */
const SKIPPED_STATUS = { label: "Skipped", className: "text-ink-600" };

const LANE_STATUS: Record<LaneView["status"], { label: string; className: string }> = {
  running: { label: "Streaming", className: "text-brand-700" },
  completed: { label: "Done", className: "text-emerald-700" },
  failed: { label: "Failed", className: "text-red-700" },
  stopped: { label: "Stopped", className: "text-ink-600" },
};

/**
 * Keeps a streaming lane scrolled to its newest text until the reader scrolls up; once the
 * lane is done, a reader who left it alone sees it from the top.
 */
function useFollowStream(text: string, active: boolean) {
  const ref = useRef<HTMLElement>(null);
  const pinned = useRef(true);
  /** Where our own last scroll put the lane: scroll events at or below it are ours. */
  const autoTop = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: every new piece of text scrolls
  useEffect(() => {
    const element = ref.current;
    if (!element || !active || !pinned.current) return;
    element.scrollTop = element.scrollHeight;
    autoTop.current = element.scrollTop;
  }, [text, active]);
  const wasActive = useRef(active);
  useEffect(() => {
    const element = ref.current;
    if (wasActive.current && !active && pinned.current && element) element.scrollTop = 0;
    wasActive.current = active;
  }, [active]);
  const onScroll = () => {
    const element = ref.current;
    if (!element || !active) return;
    if (element.scrollTop < autoTop.current - 4) pinned.current = false;
    else if (element.scrollHeight - element.scrollTop - element.clientHeight < 24)
      pinned.current = true;
  };
  return { ref, onScroll };
}

export function LaneCard({
  lane,
  model,
  draftScore,
  children,
}: {
  lane: LaneView;
  model: TModel | undefined;
  /** The Critic's score of this draft (not the run's overall verdict). */
  draftScore?: number | undefined;
  /** Actions under the lane (copy, re-run). */
  children?: ReactNode;
}) {
  const copy = roleCopy(lane.role);
  const usage = laneUsage(lane, model);
  const [expanded, setExpanded] = useState(false);
  const running = lane.status === "running";
  const follow = useFollowStream(lane.text, running);
  const citations = useRunCitations();
  const title = `${copy.name}${lane.kind === "revision" ? " · revision" : lane.kind === "critic" ? " · review" : ""}`;
  const status = lane.limit
    ? LIMIT_STOP_STATUS
    : lane.skipped && lane.status !== "running"
      ? SKIPPED_STATUS
      : LANE_STATUS[lane.status];
  return (
    <article
      aria-label={`${title} (${status.label.toLowerCase()})`}
      aria-busy={running}
      data-testid="agent-lane"
      data-role={lane.role}
      data-kind={lane.kind}
      data-status={lane.status}
      data-version={lane.version}
      className={cn(
        "flex min-w-0 flex-col overflow-hidden rounded-2xl border bg-white shadow-xs",
        running ? "border-brand-200 ring-2 ring-brand-100" : "border-ink-200",
      )}
    >
      <header
        className={cn(
          "flex items-start gap-2.5 border-b border-ink-100 px-3 py-2.5",
          copy.accent.soft,
        )}
      >
        <RoleAvatar role={lane.role} className="bg-white/70" />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
            <h4 className={cn("text-sm font-semibold", copy.accent.text)}>{title}</h4>
            <span
              className={cn(
                "inline-flex items-center gap-1 text-xs font-semibold",
                status.className,
              )}
            >
              {running ? (
                <span
                  className="size-1.5 animate-pulse rounded-full bg-brand-500"
                  aria-hidden="true"
                />
              ) : null}
              {status.label}
            </span>
          </div>
          <div className="mt-1 flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
            <ModelBadge name={lane.modelName} provider={lane.provider} simulated={lane.simulated} />
            {draftScore !== undefined ? (
              <span
                data-testid="lane-critic-score"
                className={cn(
                  "text-xs font-semibold tabular-nums",
                  draftScore >= CRITIC_SCORE_BAR ? "text-emerald-700" : "text-amber-800",
                )}
              >
                Critic {draftScore}/10
              </span>
            ) : null}
          </div>
        </div>
      </header>
      {lane.task ? (
        <p className="border-b border-ink-100 px-3 py-2 text-xs leading-5 text-ink-600">
          <span className="font-semibold text-ink-700">Task: </span>
          {lane.task}
        </p>
      ) : null}
      <section
        ref={follow.ref}
        onScroll={follow.onScroll}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
        tabIndex={0}
        aria-label={`${title} output`}
        className={cn(
          "min-h-24 flex-1 overflow-y-auto px-3 py-2.5 outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset",
          expanded ? undefined : "max-h-80",
        )}
        data-testid="lane-output"
        data-chars={lane.text.length}
      >
        {lane.text ? (
          <Markdown
            text={lane.text}
            size="sm"
            className="text-[13px] leading-[1.4rem]"
            citations={citations}
          />
        ) : running ? (
          <p className="flex items-center gap-2 text-sm text-ink-500">
            <span className="flex gap-1" aria-hidden="true">
              <span className="size-1.5 animate-bounce rounded-full bg-ink-400 [animation-delay:-0.3s]" />
              <span className="size-1.5 animate-bounce rounded-full bg-ink-400 [animation-delay:-0.15s]" />
              <span className="size-1.5 animate-bounce rounded-full bg-ink-400" />
            </span>
            Thinking…
          </p>
        ) : (
          <p className="text-sm text-ink-500 italic">No output.</p>
        )}
        {lane.limit ? (
          <p
            className="mt-2 rounded-lg border border-amber-200 bg-amber-50 px-2.5 py-1.5 text-xs text-amber-900"
            data-testid="lane-limit"
          >
            {CREDIT_LIMIT_STOP_MESSAGES[lane.limit]} What it wrote so far is kept and charged.
          </p>
        ) : null}
        {lane.error && lane.status === "failed" && !lane.limit ? (
          <p className="mt-2 rounded-lg border border-red-200 bg-red-50 px-2.5 py-1.5 text-xs text-red-800">
            {lane.error.message}
            <KeyRefusedLink code={lane.error.code} className="block text-red-900" />
          </p>
        ) : null}
      </section>
      <LaneTools lane={lane} />
      <LaneSteer lane={lane} />
      <LanePassages lane={lane} />
      <footer className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-t border-ink-100 bg-ink-50/60 px-3 py-1.5 text-xs text-ink-600 tabular-nums">
        <span data-testid="lane-usage">
          {lane.status === "stopped" && !lane.limit ? (
            // Stopped: the provider never reported usage; what was shown is charged (decision
            // 053), nothing when the call was free or its hold was given back (a shutdown).
            `≈ ${formatTokens(usage.tokens)} used · ${
              lane.credits ? `≈ ${formatRunCredits(lane.credits)} charged` : "not charged"
            } (stopped)`
          ) : (
            <>
              {usage.exact ? "" : "≈ "}
              {formatTokens(usage.tokens)}
              {notCharged(lane)
                ? ` · ${simulatedNote(lane.wouldBeCredits)}`
                : usage.credits !== null
                  ? ` · ${usage.exact ? "" : "≈ "}${formatRunCredits(usage.credits)}`
                  : ""}
              {lane.latencyMs !== null ? ` · ${formatDuration(lane.latencyMs)}` : ""}
            </>
          )}
          {/* The model that answered, so two versions of a step are told apart at the foot
              as at the head (decision 065). */}
          {lane.status === "completed" ? (
            <span data-testid="lane-model"> · by {lane.modelName}</span>
          ) : null}
        </span>
        {lane.text.length > 600 ? (
          <button
            type="button"
            onClick={() => setExpanded((v) => !v)}
            className="font-semibold text-brand-700 hover:underline"
            aria-expanded={expanded}
          >
            {expanded ? "Collapse" : "Expand"}
          </button>
        ) : null}
      </footer>
      {children}
    </article>
  );
}

/** Lanes side by side (one column on phones), each drawn by `renderLane`. */
export function LaneGrid({
  lanes,
  renderLane,
}: {
  lanes: LaneView[];
  renderLane(lane: LaneView): ReactNode;
}) {
  if (lanes.length === 0) return null;
  return (
    <div
      className="grid grid-cols-1 gap-3 md:grid-cols-2 2xl:grid-cols-3"
      data-testid="agent-lanes"
    >
      {lanes.map(renderLane)}
    </div>
  );
}

// ---------------------------------------------------------------------------------------
// Critic
// ---------------------------------------------------------------------------------------

export function CriticCard({ run }: { run: RunView }) {
  const critic = run.critic;
  if (!critic) return null;
  const score = critic.score;
  const passed = critic.verdict === "approve";
  const revisedRoles = critic.reviseStepIds
    .map((id) => run.plan?.steps.find((s) => s.id === id))
    .filter((s) => s !== undefined)
    .map((s) => AGENT_ROLE_NAMES[s.role]);
  const pct = score === null ? 0 : Math.max(0, Math.min(1, score / 10));
  return (
    <section
      aria-label="Critic's verdict"
      data-testid="critic-verdict"
      className={cn(
        "flex flex-wrap items-center gap-4 rounded-2xl border p-4",
        passed ? "border-emerald-200 bg-emerald-50/60" : "border-amber-200 bg-amber-50/60",
      )}
    >
      <div className="relative size-16 shrink-0">
        <svg viewBox="0 0 36 36" className="size-16 -rotate-90" aria-hidden="true">
          <circle cx="18" cy="18" r="15.5" fill="none" className="stroke-white" strokeWidth="4" />
          <circle
            cx="18"
            cy="18"
            r="15.5"
            fill="none"
            strokeWidth="4"
            strokeLinecap="round"
            className={passed ? "stroke-emerald-500" : "stroke-amber-500"}
            strokeDasharray={`${pct * 97.4} 97.4`}
          />
        </svg>
        <span className="absolute inset-0 flex flex-col items-center justify-center leading-none">
          <span className="text-lg font-bold text-ink-950" data-testid="critic-score">
            {score ?? "–"}
          </span>
          <span className="text-[10px] text-ink-500">/ 10</span>
        </span>
      </div>
      <div className="min-w-0 flex-1">
        <h3 className="text-sm font-semibold text-ink-950">
          Critic: {score === null ? "no score given" : `${score}/10`} —{" "}
          {passed ? "approved" : critic.verdict === "revise" ? "revision requested" : "not scored"}
        </h3>
        <p className="mt-0.5 text-sm text-ink-700">
          {passed
            ? `At or above the bar of ${critic.bar}/10: the drafts go to the coordinator as they are.`
            : critic.verdict === "revise"
              ? `Below the bar of ${critic.bar}/10. ${
                  revisedRoles.length > 0
                    ? `One revision round for: ${revisedRoles.join(", ")}.`
                    : "No draft was sent back."
                }`
              : "The drafts go to the coordinator unscored."}
        </p>
        {critic.evidence === "ran" && critic.checks ? (
          <p
            className={cn(
              "mt-1 text-sm font-medium",
              critic.checks.failed > 0 ? "text-amber-800" : "text-emerald-800",
            )}
            data-testid="critic-checks"
          >
            {describeChecks(critic.checks)}
          </p>
        ) : null}
        {critic.evidence ? (
          <p className="mt-1 text-xs text-ink-500" data-testid="critic-evidence">
            {critic.evidence === "ran"
              ? "Score based on evidence: the drafts' code and tests were run."
              : "Score based on the Critic's reading (opinion): no code with tests was run."}
          </p>
        ) : null}
      </div>
    </section>
  );
}

// ---------------------------------------------------------------------------------------
// Final answer
// ---------------------------------------------------------------------------------------

/** A run's answer and, below it, the run's own actions on it (`children`). */
export interface RunAnswerProps {
  run: RunView;
  models: Map<string, TModel>;
  /** The run's own answer's actions. */
  children?: ReactNode;
}

export function FinalAnswer({ run, models, children }: RunAnswerProps) {
  const final = run.final;
  if (!final) return null;
  const streaming = run.status === "synthesizing";
  const stopped = run.status === "cancelled";
  const ref = final.ref;
  const coordinator = run.coordinatorModel ? models.get(run.coordinatorModel) : undefined;
  const name = ref?.modelName ?? coordinator?.name ?? run.coordinatorModel ?? "Coordinator";
  const simulated = ref?.simulated ?? coordinator?.simulated ?? null;
  return (
    <AnswerFrame
      label="Final answer"
      testId="final-answer"
      icon={
        <span className="flex size-7 items-center justify-center rounded-lg bg-brand-600 text-white shadow-sm">
          <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
            <path
              d="M8 1.5l1.7 4.2 4.3.3-3.3 2.8 1 4.2L8 10.7 4.3 13l1-4.2L2 6l4.3-.3L8 1.5z"
              fill="currentColor"
            />
          </svg>
        </span>
      }
      title="Final answer"
      model={<ModelBadge name={name} provider={ref?.provider} simulated={simulated} />}
      note={
        <>
          {streaming ? "Writing…" : stopped ? "Stopped — partial answer" : null}
          {!streaming && final.credits !== null
            ? notCharged({ simulated, credits: final.credits })
              ? SIMULATED_NOT_CHARGED
              : formatRunCredits(final.credits)
            : null}
        </>
      }
      streaming={streaming}
      text={final.text}
    >
      {children}
    </AnswerFrame>
  );
}

/**
 * An answer's card: a header (icon, title, model, a note on the right), the answer's text
 * with a caret while it streams, then what the caller adds below (errors, actions).
 */
export function AnswerFrame({
  label,
  testId,
  icon,
  title,
  model,
  note,
  streaming,
  text,
  body,
  children,
}: {
  label: string;
  testId: string;
  icon: ReactNode;
  title: string;
  model: ReactNode;
  note: ReactNode;
  streaming: boolean;
  text: string;
  /** Below the text, inside the body (an error). */
  body?: ReactNode;
  children?: ReactNode;
}) {
  const citations = useRunCitations();
  return (
    <section
      aria-label={label}
      aria-busy={streaming}
      data-testid={testId}
      className="overflow-hidden rounded-2xl border border-brand-200 bg-white shadow-md shadow-brand-900/5"
    >
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-brand-100 bg-gradient-to-r from-brand-50 to-white px-4 py-2.5">
        <div className="flex flex-wrap items-center gap-2">
          {icon}
          <h3 className="text-sm font-semibold text-ink-950">{title}</h3>
          {model}
        </div>
        <span className="text-xs text-ink-600 tabular-nums">{note}</span>
      </header>
      <div className="px-4 py-3 sm:px-5 sm:py-4">
        <Markdown text={text} className="text-[15px] leading-7" citations={citations} />
        {streaming ? (
          <span
            aria-hidden="true"
            className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-brand-500 align-middle"
          />
        ) : null}
        {body}
      </div>
      {children}
    </section>
  );
}

/** Nothing charged and the simulator answered: the run cost nothing (decision 053). */
function simulatedRun(run: RunView): boolean {
  return (
    run.totalCredits === 0 &&
    !run.imported &&
    (run.lanes.some((lane) => lane.simulated === true) || run.final?.ref?.simulated === true)
  );
}

export function RunTotals({ run }: { run: RunView }) {
  const parts: string[] = [];
  if (run.inputTokens !== null && run.outputTokens !== null && !isRunActive(run.status)) {
    parts.push(formatTokens(run.inputTokens + run.outputTokens));
  }
  if (run.durationMs !== null) parts.push(formatDuration(run.durationMs));
  return (
    <p
      className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-600"
      data-testid="run-total"
    >
      <span className="font-semibold text-ink-900 tabular-nums">
        {isRunActive(run.status) ? "So far: " : "Total: "}
        {formatRunCredits(run.totalCredits)}
      </span>
      {simulatedRun(run) ? (
        <span className="font-semibold text-amber-800" data-testid="run-simulated">
          {SIMULATED_NOT_CHARGED}
        </span>
      ) : null}
      {parts.map((part) => (
        <span key={part} className="tabular-nums">
          {part}
        </span>
      ))}
    </p>
  );
}
