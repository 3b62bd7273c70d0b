import { creditsOf, type Hundredths, hundredthsOf } from "@cohort/contracts";
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
 * and the engine can be driven without Fastify (benchmarks). The engine speaks hundredths;
 * the credits module's service calls still take the wire's decimal credits, converted here.
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
      const hold = await reserveCredits(deps, userId, creditsOf(amount), reference);
      return { id: hold.id, userId: hold.userId, amount: hundredthsOf(hold.amount) };
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
      const settlement = await settleHoldWithUsage(watching, hold.id, creditsOf(usage.credits), {
        model: usage.model,
        provider: usage.provider,
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
      });
      const balance = change ?? (await getBalance(deps.db, hold.userId));
      return {
        charged: hundredthsOf(settlement.charged),
        balance: hundredthsOf(balance.balance),
        available: hundredthsOf(balance.available),
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
