import { setTimeout as sleep } from "node:timers/promises";
import { AGENT_ROLE_NAMES, STEERING_MESSAGES, type TPlannedStep } from "@cohort/contracts";
import { type CallOutcome, type CallSpec, callModel } from "./call-model";
import { runSteeringKey } from "./queued-messages";
import type { RunContext } from "./run-context";

/**
 * Steer and Skip (decision 069). A person's request is a `run_interventions` row (any
 * instance may take it); the run executing here watches its rows (woken through the
 * approvals' waiters, else every few seconds), announces each one, and stops the lane it is
 * for: its call is cut like a stopped call — the text it showed is kept and charged for what
 * it produced (decision 053) — then the lane goes on with the note as its next instruction
 * (Steer), or ends and the run goes on without it (Skip).
 */
export interface LaneIntervention {
  id: string;
  kind: "steer" | "skip";
  note: string;
  byName: string | null;
}

interface LaneHandle {
  controller: AbortController;
  intervention: LaneIntervention | null;
}

interface SteeringState {
  /** The lanes calling a model now, by plan step id. */
  lanes: Map<string, LaneHandle>;
  /** Said about lanes that had not started yet. */
  early: Map<string, LaneIntervention[]>;
  /** Skipped lanes, for the answer to say so. */
  skipped: TPlannedStep[];
}

const states = new WeakMap<RunContext, SteeringState>();

function stateOf(ctx: RunContext): SteeringState {
  let state = states.get(ctx);
  if (!state) {
    state = { lanes: new Map(), early: new Map(), skipped: [] };
    states.set(ctx, state);
  }
  return state;
}

/** How long the watcher waits between looks when nobody wakes it. */
const LOOK_MS = 3_000;

interface InterventionRow {
  id: string;
  kind: "steer" | "skip" | "message";
  step_id: string | null;
  note: string;
  created_by_name: string | null;
}

/**
 * Watches the run's interventions while it executes here; `stop` ends the watch (the run's
 * end). Without steering (benchmarks, engine tests) it does nothing.
 */
export function watchInterventions(ctx: RunContext): { stop(): void } {
  const steering = ctx.deps.steering;
  if (!steering) return { stop() {} };
  const stopped = new AbortController();
  const signal = AbortSignal.any([stopped.signal, ctx.controller.signal]);
  const key = runSteeringKey(ctx.runId);
  const look = async () => {
    const { rows } = await ctx.deps.db.query<InterventionRow>(
      `UPDATE run_interventions SET announced_at = clock_timestamp()
       WHERE id IN (SELECT id FROM run_interventions
                    WHERE run_id = $1 AND announced_at IS NULL AND taken_at IS NULL)
         AND announced_at IS NULL
       RETURNING id, kind, step_id, note, created_by_name`,
      [ctx.runId],
    );
    for (const row of rows) apply(ctx, row);
  };
  void (async () => {
    while (!signal.aborted) {
      // One signal per look, ended with it: listeners never pile up on the run's signal.
      const round = new AbortController();
      const end = () => round.abort();
      signal.addEventListener("abort", end, { once: true });
      const wake = steering.waiters.wake(key, round.signal);
      try {
        await look();
        await Promise.race([
          wake.promise,
          sleep(LOOK_MS, undefined, { signal: round.signal }).catch(() => {}),
        ]);
      } catch (error) {
        if (!signal.aborted) {
          ctx.deps.log.warn({ err: error, runId: ctx.runId }, "run interventions not read");
          await sleep(LOOK_MS, undefined, { signal: round.signal }).catch(() => {});
        }
      } finally {
        wake.cancel();
        signal.removeEventListener("abort", end);
        round.abort();
      }
    }
  })();
  return { stop: () => stopped.abort() };
}

function apply(ctx: RunContext, row: InterventionRow): void {
  if (row.kind === "message") {
    void ctx.events.append({
      type: "message.queued",
      queued_id: row.id,
      text: row.note,
      by_name: row.created_by_name,
    });
    return;
  }
  if (!row.step_id) return;
  const state = stateOf(ctx);
  const intervention: LaneIntervention = {
    id: row.id,
    kind: row.kind,
    note: row.note,
    byName: row.created_by_name,
  };
  const lane = state.lanes.get(row.step_id);
  void ctx.events.append({
    type: "lane.steered",
    lane: row.step_id,
    lane_call_id: lane ? (laneCalls.get(lane) ?? null) : null,
    action: row.kind,
    note: row.note,
    by_name: row.created_by_name,
  });
  if (lane && !lane.intervention) {
    lane.intervention = intervention;
    lane.controller.abort(intervention);
    return;
  }
  const list = state.early.get(row.step_id) ?? [];
  list.push(intervention);
  state.early.set(row.step_id, list);
}

/** The call id each running lane's current call has (for the event). */
const laneCalls = new WeakMap<LaneHandle, string>();

export interface LaneResult {
  /** The last call's outcome; null when the lane was skipped before it started. */
  outcome: CallOutcome<undefined> | null;
  /** Everything the lane wrote, across its steered calls. */
  text: string;
  skipped: LaneIntervention | null;
}

/** The continuation of a steered lane: what it wrote so far, then the person's note. */
function continued(call: CallSpec<undefined>, written: string, note: string): CallSpec<undefined> {
  const instruction = [
    `The user stopped you to steer your work: ${note}`,
    written
      ? "Continue from where you stopped, following this note. Do not repeat what you already wrote."
      : "Follow this note in your work.",
  ].join("\n");
  return {
    ...call,
    messages: [
      ...call.messages,
      ...(written ? [{ role: "assistant" as const, content: written }] : []),
      { role: "user" as const, content: instruction },
    ],
  };
}

function joined(before: string, after: string): string {
  if (!before) return after;
  if (!after) return before;
  return `${before}${/\s$/.test(before) ? "" : "\n\n"}${after}`;
}

/**
 * A lane's model call that a person may steer or skip: `call` runs under the lane's own
 * abort signal besides the run's; when a person stops it, its text is kept and the lane goes
 * on (Steer, with their note) or ends (Skip).
 */
export async function callLane(
  ctx: RunContext,
  step: TPlannedStep,
  call: CallSpec<undefined>,
): Promise<LaneResult> {
  const state = stateOf(ctx);
  let spec = call;
  let text = "";
  for (const early of state.early.get(step.id) ?? []) {
    if (early.kind === "skip") {
      state.skipped.push(step);
      return { outcome: null, text: "", skipped: early };
    }
    spec = continued(spec, "", early.note);
  }
  state.early.delete(step.id);
  for (;;) {
    const handle: LaneHandle = { controller: new AbortController(), intervention: null };
    state.lanes.set(step.id, handle);
    let outcome: CallOutcome<undefined>;
    try {
      outcome = await callModel(ctx, {
        ...spec,
        signal: handle.controller.signal,
        onCallId: (callId) => laneCalls.set(handle, callId),
      });
    } finally {
      state.lanes.delete(step.id);
    }
    const written = outcome.ok ? outcome.result.text : outcome.partial;
    text = joined(text, written);
    const intervention = handle.intervention;
    if (!intervention) return { outcome, text, skipped: null };
    if (intervention.kind === "skip") {
      state.skipped.push(step);
      return { outcome, text, skipped: intervention };
    }
    spec = continued(call, text, intervention.note);
  }
}

/** What the answer must say about skipped lanes (empty: none were). */
export function skippedNote(ctx: RunContext): string {
  const skipped = states.get(ctx)?.skipped ?? [];
  if (skipped.length === 0) return "";
  return [
    "The user skipped these steps while the team worked, so their results are missing. Say in the answer which were skipped:",
    ...skipped.map((s) => `- the ${AGENT_ROLE_NAMES[s.role]}'s step ${s.id}: ${s.task}`),
  ].join("\n");
}

export const skippedMessage = (step: TPlannedStep) =>
  STEERING_MESSAGES.skipped(AGENT_ROLE_NAMES[step.role]);
