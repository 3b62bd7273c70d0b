import { randomUUID } from "node:crypto";
import type { CreditsDeps } from "./credits-deps";
import { type GrantResult, grantCredits } from "./grant-credits";

/**
 * An administrator's grant (positive) or deduction (negative). A deduction may not take more
 * than the available balance (402). The idempotency key makes a retried request safe.
 */
export async function adjustCredits(
  deps: CreditsDeps,
  input: { userId: string; credits: number; note: string; idempotencyKey?: string | undefined },
): Promise<GrantResult> {
  return grantCredits(deps, {
    userId: input.userId,
    credits: input.credits,
    reason: "admin_adjustment",
    reference: input.idempotencyKey ?? randomUUID(),
    description: input.note,
  });
}
