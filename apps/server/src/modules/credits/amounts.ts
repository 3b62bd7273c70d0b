import { creditsOf, type Hundredths, hundredths, hundredthsOf } from "@cohort/contracts";

/**
 * The database keeps bigint hundredths, so every sum and comparison there is exact. Holds
 * and settlements (the engine's side) take and give `Hundredths`; grants, adjustments,
 * balances and the published changes face the wire and speak its decimal credits
 * (decision 020). The conversions are the contracts' (decision 014), not a second definition.
 */
export function toHundredths(credits: number): Hundredths {
  return hundredthsOf(credits);
}

export function fromHundredths(amount: number): number {
  return creditsOf(hundredths(amount));
}
