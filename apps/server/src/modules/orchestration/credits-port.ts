import type { CreditChange, CreditsDeps } from "../credits/credits-deps";
import { getBalance } from "../credits/get-balance";
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
  credits: number;
}

export interface CreditHold {
  id: string;
  userId: string;
  amount: number;
}

export interface Charge {
  /** What was taken from the balance. */
  charged: number;
  /** The balance after it, and what is left of it for new holds. */
  balance: number;
  available: number;
}

/**
 * The engine's view of the credits module: hold a call's worst case, then charge what it
 * really cost or give the hold back. A port so the engine's money rules read in one place
 * and the engine can be driven without Fastify (benchmarks).
 */
export interface CreditsPort {
  /** 402 `insufficient_credits` when the user's available balance is short. */
  reserve(userId: string, credits: number, reference: string): Promise<CreditHold>;
  /** Charges at most the hold and records the usage row. */
  settle(hold: CreditHold, usage: CallUsage): Promise<Charge>;
  release(holdId: string): Promise<void>;
  /** A call that needed no hold (own key, free model): usage only. */
  recordFree(userId: string, reference: string, usage: CallUsage): Promise<void>;
}

export function createCreditsPort(deps: CreditsDeps): CreditsPort {
  return {
    async reserve(userId, credits, reference) {
      const hold = await reserveCredits(deps, userId, credits, reference);
      return { id: hold.id, userId: hold.userId, amount: hold.amount };
    },
    async settle(hold, usage) {
      // The change the credits module publishes after commit carries the new balance.
      let change: CreditChange | undefined;
      const watching: CreditsDeps = {
        ...deps,
        publish: (changes) => {
          change = changes.find((c) => c.userId === hold.userId) ?? change;
          deps.publish(changes);
        },
      };
      const settlement = await settleHoldWithUsage(watching, hold.id, usage.credits, {
        model: usage.model,
        provider: usage.provider,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
      });
      const balance = change ?? (await getBalance(deps.db, hold.userId));
      return {
        charged: settlement.charged,
        balance: balance.balance,
        available: balance.available,
      };
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
