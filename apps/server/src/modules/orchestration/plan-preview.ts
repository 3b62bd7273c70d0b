import { AGENT_ROLES, type TAgentRole, type TPlanDraftStep } from "@cohort/contracts";
import { loadAiSdk } from "../models/ai-sdk";
import { createDeltaBatcher } from "./delta-batcher";
import type { RunContext } from "./run-context";

/**
 * The plan as the coordinator writes it, sent as `plan.delta` events (decision 079): the
 * planning call's JSON so far is read with the AI SDK's tolerant partial-JSON parser, and what
 * is new since the last event (the rationale's next words, the steps from the first that
 * changed) goes out through the same gathering as a lane's text (`delta-batcher.ts`), so the
 * first words reach the room in the turn of the event loop that brought them. The preview is
 * never the plan: `run.plan` follows with the plan checked, repaired and fitted to the run.
 */
export interface PlanPreview {
  /** The planning call that writes it (told as the call starts; a repair attempt is a new one). */
  callStarted(callId: string): void;
  /** The call's answer so far, from its first character. */
  update(textSoFar: string): void;
  /** Sends what waits; resolves once every event of the preview is appended. */
  close(): Promise<void>;
}

interface DraftView {
  rationale: string;
  steps: TPlanDraftStep[];
}

const EMPTY: DraftView = { rationale: "", steps: [] };
const ROLES: ReadonlySet<string> = new Set(AGENT_ROLES);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What a partial plan shows: its rationale and its steps up to the first whose role is not
 * complete yet (a role cut mid-word, "strat", is no role).
 */
export function draftOf(value: unknown): DraftView {
  if (!isRecord(value)) return EMPTY;
  const rationale = typeof value.rationale === "string" ? value.rationale : "";
  const steps: TPlanDraftStep[] = [];
  if (Array.isArray(value.steps)) {
    for (const step of value.steps) {
      if (!isRecord(step) || typeof step.role !== "string" || !ROLES.has(step.role)) break;
      steps.push({
        role: step.role as TAgentRole,
        task: typeof step.task === "string" ? step.task : "",
      });
    }
  }
  return { rationale, steps };
}

const sameStep = (a: TPlanDraftStep | undefined, b: TPlanDraftStep | undefined) =>
  a !== undefined && b !== undefined && a.role === b.role && a.task === b.task;

export function openPlanPreview(ctx: RunContext): PlanPreview {
  let callId: string | null = null;
  /** The answer's text the batcher has been given. */
  let seen = "";
  /** Bumped when the call's answer starts over (another attempt after a failure). */
  let generation = 0;
  /** What the client has been sent for this call (null: nothing yet), and of which attempt. */
  let sent: DraftView | null = null;
  let sentGeneration = 0;
  let chain: Promise<void> = Promise.resolve();

  const emit = async (text: string, of: number) => {
    if (callId === null) return;
    const sdk = await loadAiSdk();
    const { value } = await sdk.parsePartialJson(text);
    const view = draftOf(value);
    const prior = sent;
    const extends_ =
      prior !== null &&
      sentGeneration === of &&
      view.rationale.startsWith(prior.rationale) &&
      view.steps.length >= prior.steps.length;
    // What was shown is not where this answer goes on: the client starts the draft again.
    const restart = prior !== null && !extends_;
    let from = 0;
    if (extends_) {
      while (from < prior.steps.length && sameStep(prior.steps[from], view.steps[from])) from++;
    }
    const rationale = extends_ ? view.rationale.slice(prior.rationale.length) : view.rationale;
    const steps = view.steps.slice(from);
    // The call's first words always go out (the coordinator is writing); later, only news.
    if (extends_ && rationale.length === 0 && steps.length === 0) return;
    sent = view;
    sentGeneration = of;
    void ctx.events.append({
      type: "plan.delta",
      call_id: callId,
      ...(restart ? { restart: true } : {}),
      rationale,
      from,
      steps,
    });
  };

  const batcher = createDeltaBatcher(() => {
    const text = seen;
    const of = generation;
    chain = chain.then(
      () => emit(text, of),
      () => emit(text, of),
    );
    // Reported by `close`; never an unhandled rejection meanwhile.
    chain.catch(() => undefined);
  });

  return {
    callStarted(id) {
      batcher.close();
      callId = id;
      seen = "";
      sent = null;
    },
    update(text) {
      if (text.startsWith(seen)) {
        const piece = text.slice(seen.length);
        seen = text;
        if (piece.length > 0) batcher.push(piece);
        return;
      }
      // Another attempt of the same call (its provider failed over): its answer from the start.
      seen = text;
      generation += 1;
      if (text.length > 0) batcher.push(text);
    },
    async close() {
      batcher.close();
      await chain.catch((error: unknown) => {
        ctx.deps.log.warn({ err: error, runId: ctx.runId }, "the plan's preview failed");
      });
    },
  };
}
