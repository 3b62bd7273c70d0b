import type { Hundredths, TCreditLimitKind } from "@cohort/contracts";
import type { CatalogueModel } from "../models/catalogue-schema";
import type { Grown } from "./hold-credits";
import { coveredOutputTokens, priceOf, SLICE_TOKENS } from "./hold-slices";

/**
 * What a metered call's text is priced with, read at every flush: a tool loop's next turn
 * adds its prompt to `inputTokens` (callModel's `growForInput`).
 */
export interface MeteredCall {
  model: CatalogueModel;
  inputTokens: number;
  maxOutputTokens: number;
}

/** The caller's part of a metered call: where its text goes, how it stops, how its hold grows. */
export interface MeterOutlet<H extends { amount: Hundredths }> {
  /** Passes on a piece of text the hold pays for. */
  show(piece: string): void;
  /** Stops the call at `limit` (called once): text waits that the hold can no longer pay for. */
  stop(limit: TCreditLimitKind): void;
  /**
   * Grows `hold` by up to `wanted`; `hold.amount` is the new amount once it resolves. Never
   * rejects: a failure is a refusal that names its limit.
   */
  grow(hold: H, wanted: Hundredths): Promise<Grown>;
}

/** The hold grows by a slice once less than half a slice of text is left of what it pays. */
const GROW_BELOW_CHARS = (SLICE_TOKENS * 4) / 2;

/**
 * A streamed call's text, passed on only as far as its credit hold pays for it (decision 053),
 * one rule for the run's calls (callModel) and /api/v1's (completeWithModel):
 * - `text` is what was passed on (paid for), `pending` what waits for the hold: its first one
 *   (`open`), or the next slice;
 * - half a slice before the end of what is held, the hold grows by a slice (`outlet.grow`),
 *   one extension at a time, and the text flushes again when it is settled;
 * - once an extension is refused (`exhausted`), text beyond the hold stops the call there
 *   (`stoppedAt`, `outlet.stop`), and later deltas are dropped.
 * Tokens are four characters, as everywhere. A call without a hold (`open(null, …)`) passes
 * everything on. The caller keeps the rest: the messages, what a stop aborts, what is stored
 * and charged, and waiting for `growing` before it reads `text` at the end.
 * One flush per delta, no allocation but the text's own pieces.
 */
export class MeteredText<H extends { amount: Hundredths }> {
  /** What was passed on: paid for by the hold. */
  text = "";
  /** What waits for the hold to be there, or to grow. */
  pending = "";
  /** The extension on its way: the text is flushed again when it has settled. */
  growing: Promise<void> | null = null;
  /** The limit that refused an extension: the hold will not grow again. */
  exhausted: TCreditLimitKind | null = null;
  /** The limit the call was stopped at. */
  stoppedAt: TCreditLimitKind | null = null;
  private hold: H | null = null;
  private outlet: MeterOutlet<H> | null = null;

  constructor(private readonly call: MeteredCall) {}

  /** The hold is there (null: the call costs nothing): text flows from now on. */
  open(hold: H | null, outlet: MeterOutlet<H>): void {
    this.hold = hold;
    this.outlet = outlet;
    this.flush();
  }

  /** A delta from the provider. */
  push(delta: string): void {
    if (this.stoppedAt) return;
    this.pending += delta;
    this.flush();
  }

  /** Passes on what the hold pays for; grows the hold or stops the call as it must. */
  flush(): void {
    const outlet = this.outlet;
    if (!outlet || this.stoppedAt) return;
    const { model, inputTokens, maxOutputTokens } = this.call;
    const hold = this.hold;
    // Only an extension's settling changes the hold's amount, never this turn.
    const covered = hold
      ? coveredOutputTokens(model, inputTokens, hold.amount, maxOutputTokens) * 4
      : Number.POSITIVE_INFINITY;
    const room = covered - this.text.length;
    if (this.pending.length > 0 && room > 0) {
      const piece = this.pending.slice(0, room);
      this.pending = this.pending.slice(piece.length);
      this.text += piece;
      outlet.show(piece);
    }
    const limit = this.exhausted;
    if (this.pending.length > 0 && limit) {
      this.stoppedAt = limit;
      outlet.stop(limit);
      return;
    }
    if (
      hold &&
      !this.growing &&
      !limit &&
      covered - this.text.length < GROW_BELOW_CHARS &&
      covered < maxOutputTokens * 4
    ) {
      this.growing = outlet.grow(hold, priceOf(model, 0, SLICE_TOKENS)).then((grown) => {
        this.growing = null;
        if (!grown.ok) this.exhausted = grown.limit;
        this.flush();
      });
    }
  }
}
