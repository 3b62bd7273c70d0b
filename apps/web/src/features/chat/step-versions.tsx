import {
  AGENT_ROLE_NAMES,
  CRITIC_SCORE_BAR,
  isRunActive,
  RERUN_TEMPERATURE_MAX,
  type TModel,
  type TRerunStepRequest,
  type TSession,
} from "@cohort/contracts";
import { createContext, type FormEvent, useContext, useId, useState } from "react";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { Markdown } from "../../components/markdown/markdown";
import { isApiError } from "../../lib/api/api-error";
import { formatRunCredits } from "../../lib/format/runs";
import { rerunStep, synthesizeVersion } from "./chat-api";
import { CopyActions } from "./copy-actions";
import { LaneCard } from "./run-parts";
import { answersWith, type LaneView, type RunView, rerunReviewOf, stepVersions } from "./run-state";
import { SIDE_BY_SIDE, VersionTabs } from "./version-tabs";

/**
 * Re-running one step of an ended run on another model (decision 031): the control on an
 * agent's lane, and the step's versions side by side (or one at a time, as tabs), each with
 * its model, cost and the Critic's score.
 */

/** What the run view needs to offer the chat actions; absent (null) where they do not apply. */
export interface ChatActions {
  sessionId: string;
  /** Nothing is running in the session, which is active: actions may start work. */
  canStart: boolean;
  /** A new run of the message this run answered (asked first, with its estimated cost). */
  regenerate(runId: string): void;
  /** The message's text into the composer, to change and send as a new message. */
  edit(text: string): void;
  /** For raising the budget where a refusal shows. */
  session: TSession;
  onSessionChange(session: TSession): void;
  /** "Fork from here" on a completed step of an ended run (decision 070). */
  fork?(run: RunView, lane: LaneView): void;
}

export const ChatActionsContext = createContext<ChatActions | null>(null);

/** What a lane's parts read: its run, the lane and the model catalogue. */
type LaneProps = {
  run: RunView;
  lane: LaneView;
  models: Map<string, TModel>;
};

function RerunForm({
  run,
  lane,
  models,
  sessionId,
  onDone,
}: LaneProps & {
  sessionId: string;
  onDone(): void;
}) {
  const id = useId();
  const choices = [...models.values()].filter((m) => m.roles.includes(lane.role));
  // The picker starts on the model the step runs on now (its newest version's): the user
  // changes what they mean to change, the model or only the temperature (decision 057).
  const current = stepVersions(run, lane).at(-1)?.model ?? lane.model;
  const [model, setModel] = useState(
    choices.some((m) => m.id === current) ? current : (choices[0]?.id ?? current),
  );
  const [temperature, setTemperature] = useState("");
  const hasCritic = run.plan?.steps.some((s) => s.phase === "review") ?? false;
  const [review, setReview] = useState(hasCritic);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: TRerunStepRequest = { model, review: hasCritic && review };
    if (temperature.trim() !== "") {
      const value = Number(temperature);
      if (!Number.isFinite(value) || value < 0 || value > RERUN_TEMPERATURE_MAX) {
        setError(`The temperature must be a number from 0 to ${RERUN_TEMPERATURE_MAX}.`);
        return;
      }
      body.temperature = value;
    }
    setBusy(true);
    setError(null);
    try {
      await rerunStep(sessionId, run.id, lane.stepId, body);
      onDone();
    } catch (cause) {
      setError(isApiError(cause) ? cause.message : "The step could not be re-run. Try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={submit}
      aria-label={`Re-run the ${AGENT_ROLE_NAMES[lane.role]}'s step`}
      data-testid="rerun-form"
      className="grid grid-cols-1 gap-2 border-t border-ink-100 bg-white px-3 py-2.5 text-xs"
    >
      <div className="flex flex-wrap items-end gap-2">
        <label className="grid gap-0.5" htmlFor={`${id}-model`}>
          <span className="font-semibold text-ink-700">Model</span>
          <select
            id={`${id}-model`}
            value={model}
            onChange={(e) => setModel(e.target.value)}
            className="rounded-lg border border-ink-300 bg-white px-2 py-1 text-sm"
          >
            {choices.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
                {m.id === current ? " (current model)" : ""}
                {m.simulated ? " · Simulated" : ""}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-0.5" htmlFor={`${id}-temperature`}>
          <span className="font-semibold text-ink-700">Temperature</span>
          <input
            id={`${id}-temperature`}
            inputMode="decimal"
            value={temperature}
            onChange={(e) => setTemperature(e.target.value)}
            placeholder={String(models.get(model)?.default_temperature ?? "default")}
            className="w-24 rounded-lg border border-ink-300 px-2 py-1 text-sm"
          />
        </label>
        {hasCritic ? (
          <label className="flex items-center gap-1.5 pb-1.5 text-ink-700">
            <input type="checkbox" checked={review} onChange={(e) => setReview(e.target.checked)} />
            The Critic scores the new version
          </label>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-red-800" data-testid="rerun-error">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? "Starting…" : "Re-run step"}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * A re-run version's offer to have the coordinator write the run's answer again with this
 * version in place of the step's first (decision 031); the new answer shows beside the run's.
 */
function RewriteAnswer({ run, version }: { run: RunView; version: LaneView }) {
  const actions = useContext(ChatActionsContext);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!actions || run.status !== "completed" || !run.final || version.status !== "completed") {
    return null;
  }
  const written = answersWith(run, version.callId).length;
  const rewrite = async () => {
    setBusy(true);
    setError(null);
    try {
      await synthesizeVersion(actions.sessionId, run.id, version.stepId, version.version);
    } catch (cause) {
      setError(
        isApiError(cause) ? cause.message : "The answer could not be re-written. Try again.",
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="grid gap-1 border-t border-ink-100 px-2 py-1.5 text-xs">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-ink-500">
          {written > 0 ? `Answer re-written with v${version.version}` : null}
        </span>
        <button
          type="button"
          onClick={rewrite}
          disabled={busy || !actions.canStart}
          title={actions.canStart ? undefined : "Wait until nothing is running in the session."}
          className="rounded-md border border-brand-200 px-2 py-0.5 font-semibold text-brand-700 hover:bg-brand-50 disabled:border-ink-200 disabled:text-ink-400"
        >
          {busy
            ? "Starting…"
            : written > 0
              ? `Re-write the answer with v${version.version} again`
              : `Re-write the answer with v${version.version}`}
        </button>
      </div>
      {error ? (
        <p role="alert" className="text-red-800" data-testid="rewrite-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The footer actions of an agent's lane: copy, and re-run (first versions, ended runs). */
function LaneActions({ run, lane, models }: LaneProps) {
  const actions = useContext(ChatActionsContext);
  const [open, setOpen] = useState(false);
  const what = `the ${AGENT_ROLE_NAMES[lane.role]}'s ${lane.kind === "agent" ? "draft" : "text"}`;
  const canRerun =
    actions !== null && lane.kind === "agent" && lane.rerunOf === null && lane.status !== "running";
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-ink-100 px-2 py-1">
        <CopyActions text={lane.text} what={what} />
        {canRerun ? (
          <button
            type="button"
            onClick={() => setOpen((v) => !v)}
            disabled={!actions.canStart}
            aria-expanded={open}
            title={actions.canStart ? undefined : "Wait until nothing is running in the session."}
            className="rounded-md px-2 py-0.5 text-xs font-semibold text-brand-700 hover:bg-brand-50 disabled:text-ink-400"
          >
            Re-run with another model…
          </button>
        ) : null}
        {canRerun && actions.fork && lane.status === "completed" && !isRunActive(run.status) ? (
          <button
            type="button"
            onClick={() => actions.fork?.(run, lane)}
            disabled={!actions.canStart}
            title={actions.canStart ? undefined : "Wait until nothing is running in the session."}
            className="rounded-md px-2 py-0.5 text-xs font-semibold text-brand-700 hover:bg-brand-50 disabled:text-ink-400"
          >
            Fork from here…
          </button>
        ) : null}
      </div>
      {lane.kind === "agent" && lane.rerunOf !== null ? (
        <RewriteAnswer run={run} version={lane} />
      ) : null}
      {open && canRerun ? (
        <RerunForm
          run={run}
          lane={lane}
          models={models}
          sessionId={actions.sessionId}
          onDone={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

/** What a version cost and how the Critic scored the drafts with it. */
function versionFacts(
  run: RunView,
  version: LaneView,
): { cost: number | null; score: number | null } {
  // The first version's score is the Critic's score of that draft, not the run's overall
  // verdict (the ring shows that one).
  if (version.rerunOf === null) {
    return { cost: version.credits, score: run.critic?.draftScores[version.stepId] ?? null };
  }
  const review = rerunReviewOf(run, version);
  const cost = version.credits === null ? null : version.credits + (review?.credits ?? 0);
  return { cost, score: version.criticScore };
}

function versionTitle(version: LaneView, modelName: string): string {
  const temperature = version.temperature === null ? "" : ` · temperature ${version.temperature}`;
  return `v${version.version} · ${modelName}${temperature}`;
}

function VersionSummary({ run, version }: { run: RunView; version: LaneView }) {
  const { cost, score } = versionFacts(run, version);
  const review = version.rerunOf === null ? null : rerunReviewOf(run, version);
  const scoring = review !== null && review.status === "running";
  return (
    // Two lines whatever the widths, so versions side by side start at the same height.
    <div
      className="grid gap-0.5 px-1 text-xs text-ink-700 tabular-nums"
      data-testid="version-summary"
    >
      <p className="truncate font-semibold text-ink-950">
        {versionTitle(version, version.modelName)}
      </p>
      <p className="flex flex-wrap gap-x-3">
        <span data-testid="version-cost">
          {cost === null ? "cost pending" : formatRunCredits(cost)}
          {review ? " incl. review" : ""}
        </span>
        <span
          data-testid="version-score"
          className={cn(
            "font-semibold",
            score !== null && score >= CRITIC_SCORE_BAR ? "text-emerald-700" : "text-amber-800",
            score === null && "font-normal text-ink-500",
          )}
        >
          {scoring ? "Critic scoring…" : score === null ? "No Critic score" : `Critic ${score}/10`}
        </span>
      </p>
    </div>
  );
}

/** What the Critic wrote about the drafts with a re-run in them, folded away. */
function VersionReview({ run, version }: { run: RunView; version: LaneView }) {
  const review = version.rerunOf === null ? null : rerunReviewOf(run, version);
  if (!review?.text) return null;
  return (
    <details
      className="rounded-xl border border-ink-200 bg-white px-3 py-2 text-xs"
      data-testid="version-review"
    >
      <summary className="cursor-pointer font-semibold text-ink-700">
        The Critic's review with v{version.version}
        {review.credits !== null ? ` · ${formatRunCredits(review.credits)}` : ""}
      </summary>
      <Markdown text={review.text} size="sm" className="mt-2 text-[13px] leading-[1.4rem]" />
    </details>
  );
}

/** A plan step's lane, with its versions once it was re-run: side by side, or one by one. */
export function StepLane({ run, lane, models }: LaneProps) {
  const versions = lane.kind === "agent" ? stepVersions(run, lane) : [lane];
  const [shown, setShown] = useState<string>(SIDE_BY_SIDE);
  if (versions.length === 1) {
    return (
      <LaneCard
        lane={lane}
        model={models.get(lane.model)}
        draftScore={lane.kind === "agent" ? run.critic?.draftScores[lane.stepId] : undefined}
      >
        <LaneActions run={run} lane={lane} models={models} />
      </LaneCard>
    );
  }
  const single = versions.find((v) => v.callId === shown);
  const visible = single ? [single] : versions;
  return (
    <section
      aria-label={`The ${AGENT_ROLE_NAMES[lane.role]}'s step, ${versions.length} versions`}
      data-testid="step-versions"
      data-step={lane.stepId}
      className="col-span-full grid grid-cols-1 gap-2 rounded-2xl border border-ink-200 bg-ink-50/60 p-2"
    >
      <VersionTabs
        label="Versions"
        heading={`${AGENT_ROLE_NAMES[lane.role]} · ${versions.length} versions`}
        tabs={versions.map((v) => ({ id: v.callId, title: `v${v.version}` }))}
        shown={single?.callId ?? null}
        onShow={setShown}
      />
      <div className={cn("grid grid-cols-1 gap-3", visible.length > 1 && "lg:grid-cols-2")}>
        {visible.map((v) => (
          <div
            key={v.callId}
            className="grid min-w-0 grid-cols-1 content-start gap-1"
            data-testid="step-version"
            data-version={v.version}
          >
            <VersionSummary run={run} version={v} />
            <LaneCard lane={v} model={models.get(v.model)}>
              <LaneActions run={run} lane={v} models={models} />
            </LaneCard>
            <VersionReview run={run} version={v} />
          </div>
        ))}
      </div>
    </section>
  );
}
