import {
  AGENT_ROLE_NAMES,
  FORK_INSTRUCTIONS_MAX,
  forkedSteps,
  type TModel,
} from "@cohort/contracts";
import { type FormEvent, useId, useState } from "react";
import { DialogFrame } from "../../components/dialog-frame";
import { FormButtons } from "../../components/form";
import { isApiError } from "../../lib/api/api-error";
import { forkStep } from "./chat-api";
import type { LaneView, RunView } from "./run-state";

export interface ForkTarget {
  run: RunView;
  lane: LaneView;
}

/**
 * "Fork from here" (decision 070): the step on another model (and other instructions or tools), and
 * what that means — which steps run again and are charged, which are kept as they are.
 */
export function ForkDialog({
  sessionId,
  target,
  models,
  onOpenChange,
  onForked,
}: {
  sessionId: string;
  target: ForkTarget | null;
  models: Map<string, TModel>;
  onOpenChange(open: boolean): void;
  onForked(started: { runId: string; messageId: string; target: ForkTarget; model: string }): void;
}) {
  return (
    <DialogFrame
      open={target !== null}
      onOpenChange={onOpenChange}
      title="Fork from here"
      description="A new version of the answer: the steps before this one are kept as they are (not charged again); this step and every step that depends on it run again."
      testId="fork-dialog"
    >
      {target ? (
        <ForkForm
          key={target.lane.callId}
          sessionId={sessionId}
          target={target}
          models={models}
          onCancel={() => onOpenChange(false)}
          onForked={onForked}
        />
      ) : null}
    </DialogFrame>
  );
}

function ForkForm({
  sessionId,
  target,
  models,
  onCancel,
  onForked,
}: {
  sessionId: string;
  target: ForkTarget;
  models: Map<string, TModel>;
  onCancel(): void;
  onForked(started: { runId: string; messageId: string; target: ForkTarget; model: string }): void;
}) {
  const id = useId();
  const { run, lane } = target;
  const choices = [...models.values()].filter((m) => m.roles.includes(lane.role));
  const other = choices.find((m) => m.id !== lane.model) ?? choices[0];
  const [model, setModel] = useState(other?.id ?? lane.model);
  const [instructions, setInstructions] = useState("");
  const planned = run.plan?.steps.find((s) => s.id === lane.stepId)?.tools;
  const toolsBefore = (planned ?? []).join(", ");
  const [toolsText, setToolsText] = useState(toolsBefore);
  const [rest, setRest] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const steps = run.plan?.steps ?? [];
  const again = forkedSteps(steps, lane.stepId);
  const kept = steps.filter((s) => s.phase === "agent" && !again.has(s.id));
  const dependents = again.size - 1;
  const role = AGENT_ROLE_NAMES[lane.role];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // Tools are sent only when changed: else the step keeps the ones it had.
      const names = toolsText
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean);
      const toolsChanged = toolsText.trim() !== toolsBefore.trim();
      const started = await forkStep(sessionId, run.id, lane.stepId, {
        model,
        rest,
        ...(instructions.trim() ? { instructions: instructions.trim() } : {}),
        ...(toolsChanged ? { tools: names } : {}),
      });
      onForked({ runId: started.run_id, messageId: started.message_id, target, model });
    } catch (cause) {
      setError(isApiError(cause) ? cause.message : "The run could not be forked. Try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={submit}
      className="grid gap-4 px-5 py-5 text-sm sm:px-6"
      data-testid="fork-form"
    >
      <p
        className="rounded-xl border border-ink-200 bg-ink-50 px-3 py-2 text-ink-800"
        data-testid="fork-scope"
      >
        Runs again: the {role}'s step
        {dependents > 0
          ? ` and ${dependents} ${dependents === 1 ? "step" : "steps"} that depend on it`
          : ""}
        , then the review and the answer. Kept as they are, not charged:{" "}
        {kept.length === 0
          ? "the plan"
          : `the plan and ${kept.map((s) => `the ${AGENT_ROLE_NAMES[s.role]}'s step`).join(", ")}`}
        .
      </p>
      <label className="grid gap-1" htmlFor={`${id}-model`}>
        <span className="font-semibold text-ink-800">Model for the {role}'s step</span>
        <select
          id={`${id}-model`}
          value={model}
          onChange={(e) => setModel(e.target.value)}
          className="rounded-lg border border-ink-300 bg-white px-2 py-1.5"
        >
          {choices.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
              {m.id === lane.model ? " (same model)" : ""}
              {m.simulated ? " · Simulated" : ""}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1" htmlFor={`${id}-instructions`}>
        <span className="font-semibold text-ink-800">Instructions for the {role} (optional)</span>
        <textarea
          id={`${id}-instructions`}
          value={instructions}
          maxLength={FORK_INSTRUCTIONS_MAX}
          onChange={(e) => setInstructions(e.target.value)}
          rows={3}
          placeholder="In place of the session's instructions for this role, for this fork"
          className="rounded-lg border border-ink-300 px-2 py-1.5"
        />
      </label>
      <div className="grid gap-1">
        <label htmlFor={`${id}-tools`} className="font-semibold text-ink-800">
          Tools for the {role}'s step
        </label>
        <input
          id={`${id}-tools`}
          value={toolsText}
          onChange={(e) => setToolsText(e.target.value)}
          aria-describedby={`${id}-tools-hint`}
          className="rounded-lg border border-ink-300 px-2 py-1.5"
          data-testid="fork-tools"
        />
        <p id={`${id}-tools-hint`} className="text-xs text-ink-700">
          Names, comma-separated, among the tools the {role} may use in this session
          {planned === undefined
            ? ". Left empty, the step keeps every tool its role may use."
            : "; empty: none."}
        </p>
      </div>
      {dependents > 0 ? (
        <label className="flex items-center gap-2 text-ink-800">
          <input type="checkbox" checked={rest} onChange={(e) => setRest(e.target.checked)} />
          Use this model and these tools for the steps after it too (where they suit their role)
        </label>
      ) : null}
      {error ? (
        <p role="alert" className="text-red-800" data-testid="fork-error">
          {error}
        </p>
      ) : null}
      <FormButtons onCancel={onCancel} disabled={busy}>
        {busy ? "Forking…" : "Fork"}
      </FormButtons>
    </form>
  );
}
