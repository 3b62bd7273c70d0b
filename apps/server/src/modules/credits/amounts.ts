import { creditsOf, type Hundredths, hundredths, hundredthsOf } from "@cohort/contracts";

/**
 * The database keeps bigint hundredths, so every sum and comparison there is exact; this
 * module's service calls still take and give the wire's decimal credits. The conversions are
 * the contracts' (docs/decisions/014-run-lifecycle-and-money.md), not a second definition.
 */
export function toHundredths(credits: number): Hundredths {
  return hundredthsOf(credits);
}

export function fromHundredths(amount: number): number {
  return creditsOf(hundredths(amount));
}
