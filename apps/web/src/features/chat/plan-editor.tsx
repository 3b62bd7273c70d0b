import {
  AGENT_ROLE_NAMES,
  AGENT_ROLES,
  STEERING_MESSAGES,
  type TAgentRole,
  type TModel,
  type TPlanEditStep,
} from "@cohort/contracts";
import { useContext, useEffect, useId, useState } from "react";
import { Button } from "../../components/button";
import { isApiError } from "../../lib/api/api-error";
import { ApprovalActionsContext } from "./lane-tools";
import type { RunView } from "./run-state";
import { startPlan } from "./steering-api";

interface Draft extends TPlanEditStep {
  key: string;
  /** The tools box as typed ("search, " mid-word); `tools` is read from it on Start. */
  toolsText: string;
  /** Its instructions, temperature and tools show at first (set by the coordinator). */
  more: boolean;
}

const field =
  "w-full rounded-lg border border-ink-300 bg-white px-2 py-1.5 text-sm text-ink-950 focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-brand-500";

function draftsOf(run: RunView): Draft[] {
  return (run.plan?.steps ?? []).map((s) => ({
    key: s.id,
    id: s.id,
    role: s.role,
    task: s.task,
    depends_on: s.depends_on,
    model: s.model,
    ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
    ...(s.instructions ? { instructions: s.instructions } : {}),
    ...(s.tools ? { tools: s.tools } : {}),
    toolsText: (s.tools ?? []).join(", "),
    more: Boolean(s.instructions || s.temperature != null || s.tools?.length),
  }));
}

/** Dependencies only on earlier steps: a move or a removal drops the ones that break. */
function tidy(steps: Draft[]): Draft[] {
  const seen = new Set<string>();
  return steps.map((s) => {
    const kept = (s.depends_on ?? []).filter((d) => seen.has(d));
    seen.add(s.id);
    return { ...s, depends_on: kept };
  });
}

/**
 * The plan of a run waiting in `planned` (decision 069): reorder, remove or add steps, change
 * a step's role, model, temperature, instructions or tools, then Start. Every control is a
 * labelled form control or a button, so it all works by keyboard.
 */
export function PlanEditor({ run, models }: { run: RunView; models: Map<string, TModel> }) {
  const actions = useContext(ApprovalActionsContext);
  const [steps, setSteps] = useState<Draft[]>(() => draftsOf(run));
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  const baseId = useId();
  /** The control that takes the focus once the steps re-render (its own went away or off). */
  const [focusId, setFocusId] = useState<string | null>(null);
  useEffect(() => {
    if (focusId === null) return;
    document.getElementById(focusId)?.focus();
    setFocusId(null);
  }, [focusId]);
  if (!actions) return null;
  const canEdit = actions.canDecide;
  // Text models only: an image model cannot take a step.
  const modelList = [...models.values()].filter((m) => m.capabilities.includes("text"));

  const update = (key: string, change: Partial<Draft>) =>
    setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...change } : s)));
  const move = (index: number, by: -1 | 1) => {
    const key = steps[index]?.key;
    const to = index + by;
    // At an end its button turns off: the focus goes to the other one.
    if (key && (to === 0 || to === steps.length - 1)) {
      setFocusId(`${baseId}-${key}-${to === 0 ? "down" : "up"}`);
    }
    setSteps((all) => {
      const next = [...all];
      const [item] = next.splice(index, 1);
      if (!item) return all;
      next.splice(index + by, 0, item);
      setStatus(`Moved step ${item.id} to position ${index + by + 1}.`);
      return tidy(next);
    });
  };
  const remove = (key: string) => {
    // The focus goes to the step that takes its place (or the one before), else to Add.
    const at = steps.findIndex((s) => s.key === key);
    const neighbour = steps[at + 1] ?? steps[at - 1];
    setFocusId(neighbour ? `${baseId}-${neighbour.key}-role` : `${baseId}-add`);
    setSteps((all) => {
      const gone = all.find((s) => s.key === key);
      setStatus(gone ? `Removed step ${gone.id}.` : "");
      return tidy(
        all
          .filter((s) => s.key !== key)
          .map((s) => ({ ...s, depends_on: (s.depends_on ?? []).filter((d) => d !== gone?.id) })),
      );
    });
  };
  const add = () => {
    let n = steps.length + 1;
    while (steps.some((s) => s.id === `step-${n}`)) n++;
    // The new step's task is what to write first.
    setFocusId(`${baseId}-new-${n}-task`);
    setSteps((all) => {
      const role: TAgentRole = "strategist";
      const model = run.plan?.steps.find((s) => s.role === role)?.model ?? all[0]?.model ?? "";
      setStatus(`Added step step-${n}.`);
      return [
        ...all,
        {
          key: `new-${n}`,
          id: `step-${n}`,
          role,
          task: "",
          depends_on: [],
          model,
          toolsText: "",
          more: false,
        },
      ];
    });
  };

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      await startPlan(actions.sessionId, run.id, {
        steps: steps.map(({ key: _key, more: _more, toolsText, tools: _tools, ...step }) => {
          const names = toolsText
            .split(",")
            .map((t) => t.trim())
            .filter(Boolean);
          return names.length > 0 ? { ...step, tools: names } : step;
        }),
      });
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : "The plan could not be started. Try again.");
      setStarting(false);
    }
  };

  return (
    <section
      aria-labelledby={`${baseId}-title`}
      className="grid grid-cols-1 gap-3 rounded-2xl border border-brand-200 bg-brand-50/40 p-3"
      data-testid="plan-editor"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${baseId}-title`} className="text-sm font-semibold text-ink-950">
          {STEERING_MESSAGES.planReady}
        </h3>
        {run.review ? (
          <p className="text-xs text-ink-600">
            Waits until {new Date(run.review.expiresAt).toLocaleTimeString()}
          </p>
        ) : null}
      </div>
      <ol className="grid grid-cols-1 gap-2">
        {steps.map((step, index) => {
          const id = `${baseId}-${step.key}`;
          return (
            <li
              key={step.key}
              aria-labelledby={`${id}-title`}
              className="grid grid-cols-1 gap-2 rounded-xl border border-ink-200 bg-white p-3 sm:grid-cols-2"
              data-testid="plan-step"
              data-step-id={step.id}
            >
              <div className="flex items-center justify-between gap-2 sm:col-span-2">
                <p id={`${id}-title`} className="text-sm font-semibold text-ink-900">
                  {index + 1}. {AGENT_ROLE_NAMES[step.role]} ·{" "}
                  <span className="font-mono text-xs">{step.id}</span>
                </p>
                {canEdit ? (
                  <div className="flex gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      id={`${id}-up`}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                      aria-label={`Move step ${step.id} up`}
                    >
                      ↑
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      id={`${id}-down`}
                      disabled={index === steps.length - 1}
                      onClick={() => move(index, 1)}
                      aria-label={`Move step ${step.id} down`}
                    >
                      ↓
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => remove(step.key)}
                      aria-label={`Remove step ${step.id}`}
                    >
                      Remove
                    </Button>
                  </div>
                ) : null}
              </div>
              <div className="grid gap-1">
                <label htmlFor={`${id}-role`} className="text-xs text-ink-700">
                  Role
                </label>
                <select
                  id={`${id}-role`}
                  className={field}
                  value={step.role}
                  disabled={!canEdit}
                  onChange={(e) => update(step.key, { role: e.target.value as TAgentRole })}
                >
                  {AGENT_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {AGENT_ROLE_NAMES[role]}
                    </option>
                  ))}
                </select>
              </div>
              <div className="grid gap-1">
                <label htmlFor={`${id}-model`} className="text-xs text-ink-700">
                  Model
                </label>
                <select
                  id={`${id}-model`}
                  className={field}
                  value={step.model}
                  disabled={!canEdit}
                  onChange={(e) => update(step.key, { model: e.target.value })}
                  data-testid="plan-step-model"
                >
                  {modelList.some((m) => m.id === step.model) ? null : (
                    <option value={step.model}>{step.model}</option>
                  )}
                  {modelList.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name}
                      {m.simulated ? " (Simulated)" : ""}
                    </option>
                  ))}
                </select>
              </div>
              <div className="grid gap-1 sm:col-span-2">
                <label htmlFor={`${id}-task`} className="text-xs text-ink-700">
                  Task
                </label>
                <textarea
                  id={`${id}-task`}
                  className={field}
                  rows={2}
                  value={step.task}
                  disabled={!canEdit}
                  onChange={(e) => update(step.key, { task: e.target.value })}
                />
              </div>
              <details className="rounded-lg sm:col-span-2" open={step.more}>
                <summary className="cursor-pointer rounded text-xs font-medium text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-500">
                  Instructions, temperature and tools
                </summary>
                <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
                  <div className="grid gap-1 sm:col-span-2">
                    <label htmlFor={`${id}-instructions`} className="text-xs text-ink-700">
                      Instructions for this step
                    </label>
                    <textarea
                      id={`${id}-instructions`}
                      className={field}
                      rows={1}
                      value={step.instructions ?? ""}
                      disabled={!canEdit}
                      onChange={(e) => update(step.key, { instructions: e.target.value })}
                    />
                  </div>
                  <div className="grid gap-1">
                    <label htmlFor={`${id}-temperature`} className="text-xs text-ink-700">
                      Temperature (empty: the model's default)
                    </label>
                    <input
                      id={`${id}-temperature`}
                      className={field}
                      type="number"
                      min={0}
                      max={2}
                      step={0.1}
                      value={step.temperature ?? ""}
                      disabled={!canEdit}
                      onChange={(e) =>
                        update(step.key, {
                          temperature: e.target.value === "" ? null : Number(e.target.value),
                        })
                      }
                    />
                  </div>
                  <div className="grid gap-1">
                    <label htmlFor={`${id}-tools`} className="text-xs text-ink-700">
                      Tools (names, comma-separated; empty: all the role may use)
                    </label>
                    <input
                      id={`${id}-tools`}
                      className={field}
                      value={step.toolsText}
                      disabled={!canEdit}
                      onChange={(e) => update(step.key, { toolsText: e.target.value })}
                    />
                  </div>
                </div>
              </details>
            </li>
          );
        })}
      </ol>
      <p role="status" className="sr-only">
        {status}
      </p>
      {error ? (
        <p
          role="alert"
          className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900"
        >
          {error}
        </p>
      ) : null}
      {canEdit ? (
        <div className="flex flex-wrap justify-between gap-2">
          <Button id={`${baseId}-add`} variant="outline" onClick={add}>
            Add a step
          </Button>
          <Button
            onClick={() => void start()}
            disabled={starting || steps.length === 0}
            data-testid="plan-start"
          >
            {starting ? "Starting…" : STEERING_MESSAGES.start}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
