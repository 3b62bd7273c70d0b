import type { FastifyInstance } from "fastify";
import { adjustCredits } from "../../src/modules/credits/adjust-credits";
import { creditsDeps } from "../../src/modules/credits/credits-deps";
import { type CreditBalance, getBalance } from "../../src/modules/credits/get-balance";
import { type SignedUp, type SignUpOptions, signUp } from "./accounts";

/** Sets a user's balance for a test (through the ledger, as an administrator would). */
export async function setCredits(app: FastifyInstance, userId: string, credits: number) {
  const current = await getBalance(app.db, userId);
  const change = Math.round((credits - current.balance) * 100) / 100;
  if (change !== 0) {
    await adjustCredits(creditsDeps(app), { userId, credits: change, note: "test" });
  }
}

export function balanceOf(app: FastifyInstance, userId: string): Promise<CreditBalance> {
  return getBalance(app.db, userId);
}

/** Signs a user up (as `signUp` does) and sets their balance to `credits`. */
export async function signUpWithCredits(
  app: FastifyInstance,
  credits: number,
  options: SignUpOptions = {},
): Promise<SignedUp> {
  const signed = await signUp(app, options);
  await setCredits(app, signed.user.id, credits);
  return signed;
}
