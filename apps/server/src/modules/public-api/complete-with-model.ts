import { randomUUID } from "node:crypto";
import { estimateTokens, priceCall, type TFinishReason } from "@cohort/contracts";
import type { Principal } from "../../platform/auth";
import { personalPayer } from "../credits/payer";
import type { GatewayMessage, ModelCallInput, ModelCallResult } from "../models/gateway";
import type { CallUsage, CreditHold } from "../orchestration/credits-port";
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
  /** The client went away: the call is stopped and its hold released. */
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
  if (unified === "length") return "length";
  if (unified === "content-filter") return "content_filter";
  return "stop";
}

const usageOf = (result: ModelCallResult): CallUsage => ({
  model: result.modelId,
  provider: result.provider,
  inputTokens: result.usage.inputTokens,
  outputTokens: result.usage.outputTokens,
  credits: result.credits,
});

/**
 * One catalogue model call for /api/v1, billed as the run engine bills its calls: the
 * worst case is held before anything is shown, the actual price settled at the end, the hold
 * released when the call fails or the client leaves (own keys: no hold, usage only). The
 * provider request goes out beside the hold's statement (decision 019); text that arrives
 * first waits for it. A refused hold (402) is thrown before `open`, so it is the answer's
 * status. `stop` is applied here: the gateway does not pass stop sequences to providers, so
 * text from the first stop on is dropped and the call runs to its end to be billed exactly.
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
  const refused = new AbortController();
  const filter = createStopFilter(input.stop);
  let opened = false;
  let waiting = "";
  let shown = "";
  // Everything the provider produced, shown or held back by the stop filter: what a call
  // cut short (the client left, a failure mid-stream) is charged for (decision 053).
  let produced = "";
  const show = (text: string) => {
    if (!text) return;
    shown += text;
    if (opened) output.text(text);
    else waiting += text;
  };
  const holding: Promise<CreditHold | null> =
    estimate.worstCaseCredits > 0
      ? deps.credits
          .reserve(personalPayer(userId), estimate.worstCaseCredits, reference)
          .then((h) => h.hold)
      : Promise.resolve(null);
  const answering = deps.models.streamModel({
    ...call,
    abortSignal: AbortSignal.any([input.clientGone, refused.signal]),
    onDelta: (delta) => {
      produced += delta;
      show(filter.push(delta));
    },
  });
  // Awaited below once the hold is there; until then a failure is not "unhandled".
  answering.catch(() => undefined);
  let hold: CreditHold | null;
  try {
    hold = await holding;
  } catch (error) {
    refused.abort(error);
    await answering.catch(() => undefined);
    throw error;
  }
  try {
    output.open(estimate.simulated);
    opened = true;
    if (waiting) output.text(waiting);
    const result = await answering;
    show(filter.flush());
    const usage = usageOf(result);
    if (hold) await deps.credits.settle(hold, usage);
    else await deps.credits.recordFree(personalPayer(userId), reference, usage);
    return {
      text: shown,
      finishReason: finishReasonOf(result.finishReason, filter.stopped),
      usage: result.usage,
      simulated: result.simulated,
    };
  } catch (error) {
    // Whatever ended the stream, what was produced is charged: the provider reports no usage
    // for a cut call, so its tokens are estimated from the prompt and the text that came.
    if (hold && produced.length > 0) {
      const cut = {
        inputTokens: estimate.inputTokensEstimate,
        outputTokens: estimateTokens(produced),
      };
      await deps.credits.settle(hold, {
        model: estimate.model.id,
        provider: estimate.simulated ? "simulator" : "unknown",
        ...cut,
        credits: priceCall(estimate.model, cut),
      });
    } else if (hold) await deps.credits.release(hold.id);
    throw error;
  }
}
