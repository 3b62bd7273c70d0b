import {
  citedNumbers,
  generatedImageIdsIn,
  type Hundredths,
  RUN_ERROR_CODES,
  type TRunPassage,
  type TRunPlanView,
} from "@cohort/contracts";
import type { ModelCallResult } from "../models/gateway";
import { type CallSpec, callModel } from "./call-model";
import type { LateBooking } from "./hold-credits";
import type { DraftText } from "./prompts";
import {
  messagesFor,
  SYNTHESIS_MAX_OUTPUT_TOKENS,
  SYNTHESIS_SYSTEM,
  synthesisContent,
} from "./prompts";
import { appendToPrompt, takeQueuedMessages, userNotesBlock } from "./queued-messages";
import type { Review } from "./review-drafts";
import type { Draft } from "./run-agents";
import { failed, haltRun, type RunContext, type RunPassages } from "./run-context";
import { skippedNote } from "./steer-lane";
import { citedIn } from "./write-step";

export interface FinalAnswer {
  callId: string;
  result: ModelCallResult;
  charged: Hundredths;
  /** The passages the answer cites as [n] (decision 037). */
  citations: TRunPassage[];
  /** The charge the run's end statement books (decision 091); absent once booked. */
  late?: LateBooking | null;
}

/** The synthesis: the coordinator streams the final answer from the drafts and the review. */
export async function synthesizeAnswer(
  ctx: RunContext,
  plan: TRunPlanView,
  drafts: Map<string, Draft>,
  review: Review | null,
): Promise<FinalAnswer> {
  const usable = plan.steps.flatMap((s) => {
    const d = drafts.get(s.id);
    return d?.ok ? [d] : [];
  });
  const passages = citedByDrafts(ctx.material.passages, usable);
  const call = synthesisCall(ctx, usable, review?.text ?? null, passages);
  // What the user said while the team worked, and the lanes they skipped (decision 069).
  const notes = userNotesBlock(await takeQueuedMessages(ctx, null));
  call.messages = appendToPrompt(
    call.messages,
    [notes, skippedNote(ctx)].filter(Boolean).join("\n\n"),
  );
  // Its charge is booked in the run's end statement, not beside the run (decision 091).
  const outcome = await callModel(ctx, { ...call, bookAtEnd: true });
  if (outcome.ok) {
    const cited = new Set(citedIn(outcome.result.text, passages));
    // The pictures the lanes made are part of the answer (decision 064): any the coordinator
    // left out follow its text, streamed like the rest of it.
    const pictures = picturesLeftOut(usable, outcome.result.text);
    if (pictures) {
      void ctx.events.append({ type: "final.delta", call_id: outcome.callId, text: pictures });
    }
    return {
      callId: outcome.callId,
      result: pictures
        ? { ...outcome.result, text: outcome.result.text + pictures }
        : outcome.result,
      charged: outcome.charged,
      citations: passages.filter((p) => cited.has(p.n)),
      late: outcome.late,
    };
  }
  throw haltRun(
    ctx,
    failed(
      RUN_ERROR_CODES.synthesisFailed,
      `The coordinator could not write the final answer: ${outcome.failure.message} The agents' drafts are kept above.`,
    ),
  );
}

const PICTURE = /!\[[^\]\n]*\]\(\/api\/images\/([0-9a-f-]{36})\)(?:\n\n_[^\n]*_)?/g;

/** The drafts' pictures (with the line that says who made them) the answer does not show. */
export function picturesLeftOut(drafts: readonly DraftText[], answer: string): string {
  const shown = new Set(generatedImageIdsIn(answer));
  const missing = drafts.flatMap((d) =>
    [...d.text.matchAll(PICTURE)].filter((m) => !shown.has(m[1] as string)).map((m) => m[0]),
  );
  return missing.length > 0 ? `\n\n${[...new Set(missing)].join("\n\n")}` : "";
}

/**
 * The passages the drafts cite, by number: what the synthesis gets, with the numbering the
 * drafts used (one per run), so the answer's [n] mean the same passages.
 */
export function citedByDrafts(passages: RunPassages, drafts: readonly DraftText[]): TRunPassage[] {
  const cited = new Set(drafts.flatMap((d) => citedNumbers(d.text)));
  return [...passages.values()].filter((p) => cited.has(p.n)).sort((a, b) => a.n - b.n);
}

/**
 * The coordinator's call that writes the final answer from `drafts` (in plan order) and the
 * Critic's review. A re-written answer (decision 031) is the same call over other drafts.
 */
export function synthesisCall(
  ctx: RunContext,
  drafts: readonly DraftText[],
  review: string | null,
  passages: readonly TRunPassage[] = [],
): CallSpec<undefined> {
  return {
    kind: "synthesis",
    stepId: null,
    role: null,
    modelId: ctx.coordinatorModel,
    system: SYNTHESIS_SYSTEM,
    messages: messagesFor(
      ctx,
      ctx.coordinatorModel,
      synthesisContent(ctx.message.content, drafts, review, passages),
      { system: SYNTHESIS_SYSTEM, maxOutputTokens: SYNTHESIS_MAX_OUTPUT_TOKENS, history: true },
    ),
    maxOutputTokens: SYNTHESIS_MAX_OUTPUT_TOKENS,
    passages,
  };
}
