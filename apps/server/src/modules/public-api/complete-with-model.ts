import { randomUUID } from "node:crypto";
import { estimateTokens, priceCall, type TFinishReason } from "@cohort/contracts";
import type { Principal } from "../../platform/auth";
import { personalPayer } from "../credits/payer";
import type { GatewayMessage, ModelCallInput, ModelCallResult } from "../models/gateway";
import type { CreditHold } from "../orchestration/credits-port";
import { callUsageOf, type Grown } from "../orchestration/hold-credits";
import { firstHold } from "../orchestration/hold-slices";
import { MeteredText } from "../orchestration/metered-text";
import type { EngineDeps } from "../orchestration/run-context";
import { createStopFilter } from "./stop-filter";

export interface ModelCompletionInput {
  principal: Principal;
  modelId: string;
  system: string | undefined;
  messages: GatewayMessage[];
  temperature: number | undefined;
  maxTokens: number | undefined;
  stop: readonly string[];
  /** The client went away: the call is stopped and charged for what was produced. */
  clientGone: AbortSignal;
}

/** Where the answer goes: `open` once the hold is in place (before any text), then text. */
export interface CompletionOutput {
  /** The answer starts; `simulated`: the built-in simulator gives it (decision 053). */
  open(simulated: boolean): void;
  text(delta: string): void;
}

export interface CompletionEnd {
  text: string;
  finishReason: TFinishReason;
  usage: { inputTokens: number; outputTokens: number };
  simulated: boolean;
}

function finishReasonOf(unified: string, stopped: boolean): TFinishReason {
  if (stopped) return "stop";
  // Cut where its hold could not grow: as if it had reached its token limit (decision 053).
  if (unified === "limit") return "length";
  if (unified === "length") return "length";
  if (unified === "content-filter") return "content_filter";
  return "stop";
}

/** An extension that failed (not refused): the call stops at the balance, as on a refusal. */
const notExtended = (): Grown => ({ ok: false, limit: "balance" });

/**
 * One catalogue model call for /api/v1, billed as the run engine bills its calls (decision
 * 053): its input and a first slice are held, the hold grows a slice at a time as the answer
 * does and text is passed on only as far as the hold pays for it; where the hold cannot grow
 * the call stops (`finish_reason` "length"), charged for what it produced, as a call cut by
 * the client or a failure mid-stream is (own keys: no hold, usage only). The provider request
 * goes out beside the hold's statement (decision 019). A refused hold (402: not even the
 * input and a minimal answer fit) is thrown before `open`, so it is the answer's status.
 * `stop` is applied here: the gateway does not pass stop sequences to providers, so text
 * from the first stop on is dropped and the call runs to its end to be billed exactly.
 */
export async function completeWithModel(
  deps: Pick<EngineDeps, "models" | "credits" | "loadUserKeys">,
  input: ModelCompletionInput,
  output: CompletionOutput,
): Promise<CompletionEnd> {
  const userId = input.principal.user.id;
  const reference = `api:${randomUUID()}`;
  const userKeys = await deps.loadUserKeys(input.principal);
  const call: ModelCallInput = {
    modelId: input.modelId,
    messages: input.messages,
    userKeys,
    ...(input.system ? { system: input.system } : {}),
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    ...(input.maxTokens !== undefined ? { maxOutputTokens: input.maxTokens } : {}),
  };
  const estimate = deps.models.estimateCall(call);
  const payer = personalPayer(userId);
  const refused = new AbortController();
  const filter = createStopFilter(input.stop);
  const { model, inputTokensEstimate: inputTokens, maxOutputTokens } = estimate;
  let hold: CreditHold | null = null;
  let shown = "";
  // What the provider produced and the hold paid for (`meter.text`), shown or held back by
  // the stop filter: what a call cut short (the client left, a failure, the limit) is charged
  // for. Text waits in the meter for the hold (its first one, or the next slice).
  const meter = new MeteredText<CreditHold>({ model, inputTokens, maxOutputTokens });
  // Resolves when the call stops at the limit: the provider's stream, aborted from inside its
  // own delta callback, may never settle, so the answer does not wait for it.
  let stopNow = () => {};
  const stopping = new Promise<null>((resolve) => {
    stopNow = () => resolve(null);
  });
  const show = (text: string) => {
    if (!text) return;
    shown += text;
    output.text(text);
  };
  const first = firstHold(model, inputTokens, maxOutputTokens);
  const holding: Promise<CreditHold | null> =
    estimate.worstCaseCredits > 0
      ? deps.credits
          .reserve(payer, first.desired, reference, undefined, first.minimum)
          .then((h) => h.hold)
      : Promise.resolve(null);
  const answering = deps.models.streamModel({
    ...call,
    abortSignal: AbortSignal.any([input.clientGone, refused.signal]),
    onDelta: (delta) => meter.push(delta),
  });
  // Awaited below once the hold is there; until then a failure is not "unhandled".
  answering.catch(() => undefined);
  try {
    hold = await holding;
  } catch (error) {
    refused.abort(error);
    await answering.catch(() => undefined);
    throw error;
  }
  // Whatever ended the stream, what was produced is charged: the provider reports no usage
  // for a cut call, so its tokens are estimated from the prompt and the text passed on.
  const chargeProduced = async (current: CreditHold) => {
    const cut = { inputTokens, outputTokens: estimateTokens(meter.text) };
    await deps.credits.settle(current, {
      model: model.id,
      provider: estimate.simulated ? "simulator" : "unknown",
      ...cut,
      credits: priceCall(model, cut),
    });
    return cut;
  };
  try {
    output.open(estimate.simulated);
    meter.open(hold, {
      show: (piece) => show(filter.push(piece)),
      stop: () => {
        refused.abort(new Error("stopped at the credit limit"));
        stopNow();
      },
      grow: (current, wanted) =>
        deps.credits.extend(payer, current.id, wanted).then((grown) => {
          if (grown.ok) current.amount = grown.amount;
          return grown;
        }, notExtended),
    });
    let result: ModelCallResult | null;
    try {
      result = await Promise.race([answering, stopping]);
    } catch (error) {
      if (!meter.stoppedAt) throw error;
      result = null;
    }
    if (!result) return await stoppedEnd();
    // The answer is complete: what still waits for the hold gets its last chance.
    while (meter.growing) await meter.growing;
    meter.flush();
    if (meter.stoppedAt || meter.pending.length > 0) return await stoppedEnd();
    show(filter.flush());
    const usage = callUsageOf(result);
    if (hold) await deps.credits.settle(hold, usage);
    else await deps.credits.recordFree(payer, reference, usage);
    return {
      text: shown,
      finishReason: finishReasonOf(result.finishReason, filter.stopped),
      usage: result.usage,
      simulated: result.simulated,
    };
  } catch (error) {
    while (meter.growing) await meter.growing;
    if (hold && meter.text.length > 0) await chargeProduced(hold);
    else if (hold) await deps.credits.release(hold.id);
    throw error;
  }

  /** Stopped where the hold could not grow: the text so far, charged for (decision 053). */
  async function stoppedEnd(): Promise<CompletionEnd> {
    while (meter.growing) await meter.growing;
    show(filter.flush());
    const usage = hold ? await chargeProduced(hold) : { inputTokens, outputTokens: 0 };
    return {
      text: shown,
      finishReason: finishReasonOf("limit", filter.stopped),
      usage,
      simulated: estimate.simulated,
    };
  }
}
