import { type Hundredths, hundredths, priceCall, type TModelPrice } from "@cohort/contracts";

/**
 * How a call's hold grows with its answer (docs/decisions/053-holds-that-grow.md): it first
 * holds its input and a first slice of output, then one slice more each time the answer
 * nears what is held. A call is refused up front only when not even its input and a minimal
 * answer can be paid.
 */

/** Output tokens the first hold covers beside the input. */
export const FIRST_SLICE_TOKENS = 512;
/** Output tokens each extension adds. */
export const SLICE_TOKENS = 512;
/**
 * Output tokens a plan's hold covers: a plan is one object, not a stream that can grow its
 * hold, and one cut short is not valid; this is about twice a long plan.
 */
export const PLAN_SLICE_TOKENS = 1024;
/** The smallest answer worth starting a call for: below it, the call is refused up front. */
export const MIN_ANSWER_TOKENS = 64;

interface Priced {
  price: TModelPrice;
}

/** What a call with `inputTokens` and `outputTokens` costs (the one price rule, decision 014). */
export function priceOf(model: Priced, inputTokens: number, outputTokens: number): Hundredths {
  return priceCall(model, { inputTokens, outputTokens });
}

/**
 * The most output tokens `amount` pays for beside the input (0 when it does not even pay the
 * input; up to `cap`, the call's own maximum, when output is free).
 */
export function coveredOutputTokens(
  model: Priced,
  inputTokens: number,
  amount: Hundredths,
  cap: number,
): number {
  const perToken = model.price.output_per_1k;
  if (priceOf(model, inputTokens, 0) > amount) return 0;
  if (perToken <= 0) return cap;
  let tokens = Math.min(
    cap,
    Math.max(0, Math.floor((amount * 10 - inputTokens * model.price.input_per_1k) / perToken)),
  );
  while (tokens > 0 && priceOf(model, inputTokens, tokens) > amount) tokens--;
  return tokens;
}

/** A call's first hold and the least it may start with, neither above its worst case. */
export function firstHold(
  model: Priced,
  inputTokens: number,
  maxOutputTokens: number,
): { desired: Hundredths; minimum: Hundredths } {
  const desired = priceOf(model, inputTokens, Math.min(maxOutputTokens, FIRST_SLICE_TOKENS));
  const minimum = priceOf(model, inputTokens, Math.min(maxOutputTokens, MIN_ANSWER_TOKENS));
  return { desired, minimum: hundredths(Math.min(minimum, desired)) };
}
