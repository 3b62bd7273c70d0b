import type { Hundredths } from "@cohort/contracts";
import type { ComposedStatement } from "../credits/composed-statement";
import type { CreditsDeps } from "../credits/credits-deps";
import type { Payer } from "../credits/payer";
import { recordUsage } from "../credits/record-usage";
import { releaseHold } from "../credits/release-hold";
import { releaseHoldsByReference } from "../credits/release-holds-by-reference";
import { type Extension, extendHold, reserveCredits } from "../credits/reserve-credits";
import { settleHoldWithUsage } from "../credits/settle-hold";

/** What a finished call used, for the charge and the usage statistics. */
export interface CallUsage {
  model: string;
  provider: string;
  inputTokens: number;
  outputTokens: number;
  /** The call's price; 0 on the user's own key. */
  credits: Hundredths;
}

export interface CreditHold {
  id: string;
  userId: string;
  amount: Hundredths;
}

/** A hold, with the row its composed statement selected (null without one, or on a retry). */
export interface Held<R extends object = object> {
  hold: CreditHold;
  composed: R | null;
}

export interface Charge<R extends object = object> {
  /** What was taken from the balance. */
  charged: Hundredths;
  /** The balance after it, and what is left of it for new holds. */
  balance: Hundredths;
  available: Hundredths;
  /** The composed statement's row; null when the hold was not open and it did not run. */
  composed: R | null;
}

/**
 * The engine's view of the credits module: hold a call's worst case, then charge what it
 * really cost or give the hold back. A port so the engine's money rules read in one place
 * and the engine can be driven without Fastify (benchmarks). Both sides speak hundredths
 * (decision 014); only the wire's payloads carry decimal credits.
 */
export interface CreditsPort {
  /**
   * 402 `insufficient_credits` when the payer's available balance is short, and for a team
   * member 402 `member_cap_reached` when the member's monthly cap is. `composed` writes the
   * engine's rows in the hold's statement (`call-statements.ts`).
   */
  reserve<R extends object = object>(
    payer: Payer,
    amount: Hundredths,
    reference: string,
    composed?: ComposedStatement,
    minimum?: Hundredths,
  ): Promise<Held<R>>;
  /**
   * Grows an open hold by up to `amount` within the wallet, the member's cap and the user's
   * personal limit (decision 053); says which limit refused it when nothing was left.
   */
  extend(payer: Payer, holdId: string, amount: Hundredths): Promise<Extension>;
  /** Charges at most the hold and records the usage row, with `composed`'s rows. */
  settle<R extends object>(
    hold: CreditHold,
    usage: CallUsage,
    composed?: ComposedStatement,
  ): Promise<Charge<R>>;
  release(holdId: string): Promise<void>;
  /** Gives back every open hold whose reference starts with `prefix`; returns how many. */
  releaseAllOf(prefix: string): Promise<number>;
  /** A call that needed no hold (own key, free model): usage only. */
  recordFree(payer: Payer, reference: string, usage: CallUsage): Promise<void>;
}

export function createCreditsPort(deps: CreditsDeps): CreditsPort {
  return {
    async reserve<R extends object>(
      payer: Payer,
      amount: Hundredths,
      reference: string,
      composed?: ComposedStatement,
      minimum?: Hundredths,
    ) {
      const held = await reserveCredits<R>(deps, payer, amount, reference, composed, minimum);
      return {
        hold: { id: held.id, userId: held.userId, amount: held.amount },
        composed: held.composed,
      };
    },
    async settle<R extends object>(
      hold: CreditHold,
      usage: CallUsage,
      composed?: ComposedStatement,
    ) {
      const settlement = await settleHoldWithUsage<R>(
        deps,
        hold.id,
        usage.credits,
        {
          model: usage.model,
          provider: usage.provider,
          inputTokens: usage.inputTokens,
          outputTokens: usage.outputTokens,
        },
        composed,
      );
      const { charged, balance, available } = settlement;
      return { charged, balance, available, composed: settlement.composed };
    },
    extend: (payer, holdId, amount) => extendHold(deps, payer, holdId, amount),
    async release(holdId) {
      await releaseHold(deps, holdId);
    },
    releaseAllOf: (prefix) => releaseHoldsByReference(deps, prefix),
    async recordFree(payer, reference, usage) {
      await recordUsage(deps.db, {
        userId: payer.accountId,
        memberId: payer.memberId,
        reference,
        model: usage.model,
        provider: usage.provider,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        credits: 0,
      });
    },
  };
}
