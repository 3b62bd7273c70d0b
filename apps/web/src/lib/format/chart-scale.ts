/** The scale of the app's bar charts (billing usage, admin analytics). */

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The top of a bar chart's scale: the smallest 1, 2, 2.5 or 5 × 10^k at or above `max`, so the
 * gridline labels are round numbers. An empty chart still gets a scale of 1.
 */
export function niceCeiling(max: number): number {
  if (!Number.isFinite(max) || max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const candidate = step * magnitude;
    if (candidate >= max - 1e-9) return round2(candidate) || candidate;
  }
  return 10 * magnitude;
}

/** A bar's length as a percentage of the scale, at least a sliver for any non-zero value. */
export function barPercent(value: number, scale: number): number {
  if (value <= 0 || scale <= 0) return 0;
  return Math.max(1.5, Math.min(100, (value / scale) * 100));
}
