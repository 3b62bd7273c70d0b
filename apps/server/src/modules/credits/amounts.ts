/**
 * Credits are numbers with at most two decimals on the wire and in service calls; the
 * database keeps bigint hundredths, so every sum and comparison there is exact.
 */
export function toHundredths(credits: number): number {
  if (!Number.isFinite(credits)) throw new RangeError(`not a credit amount: ${credits}`);
  return Math.round(credits * 100);
}

export function fromHundredths(hundredths: number): number {
  return hundredths / 100;
}
