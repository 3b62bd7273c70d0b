import type { Hundredths } from "@cohort/contracts";
import type { CreditsDeps } from "../credits/credits-deps";
import { recordUsage } from "../credits/record-usage";
import { releaseHold } from "../credits/release-hold";
import { reserveCredits } from "../credits/reserve-credits";
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

export interface Charge {
  /** What was taken from the balance. */
  charged: Hundredths;
  /** The balance after it, and what is left of it for new holds. */
  balance: Hundredths;
  available: Hundredths;
}

/**
 * The engine's view of the credits module: hold a call's worst case, then charge what it
 * really cost or give the hold back. A port so the engine's money rules read in one place
 * and the engine can be driven without Fastify (benchmarks). Both sides speak hundredths
 * (decision 014); only the wire's payloads carry decimal credits.
 */
export interface CreditsPort {
  /** 402 `insufficient_credits` when the user's available balance is short. */
  reserve(userId: string, amount: Hundredths, reference: string): Promise<CreditHold>;
  /** Charges at most the hold and records the usage row. */
  settle(hold: CreditHold, usage: CallUsage): Promise<Charge>;
  release(holdId: string): Promise<void>;
  /** A call that needed no hold (own key, free model): usage only. */
  recordFree(userId: string, reference: string, usage: CallUsage): Promise<void>;
}

export function createCreditsPort(deps: CreditsDeps): CreditsPort {
  return {
    async reserve(userId, amount, reference) {
      const hold = await reserveCredits(deps, userId, amount, reference);
      return { id: hold.id, userId: hold.userId, amount: hold.amount };
    },
    async settle(hold, usage) {
      const settlement = await settleHoldWithUsage(deps, hold.id, usage.credits, {
        model: usage.model,
        provider: usage.provider,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
      });
      const { charged, balance, available } = settlement;
      return { charged, balance, available };
    },
    async release(holdId) {
      await releaseHold(deps, holdId);
    },
    async recordFree(userId, reference, usage) {
      await recordUsage(deps.db, {
        userId,
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
