export interface CriticVerdict {
  /** The overall score out of 10; null when the review has none. */
  score: number | null;
  /** Per-draft scores by plan step id ("Draft s2: 6/10"), where given. */
  draftScores: Record<string, number>;
}

const clamp = (n: number) => Math.min(10, Math.max(0, n));

/**
 * Reads the Critic's scores. The rubric asks for one "Draft <id>: N/10" line per draft and a
 * closing "Score: N/10"; the last overall score wins (a review may quote an earlier one).
 */
export function parseCriticVerdict(text: string, stepIds: readonly string[]): CriticVerdict {
  const overall = [...text.matchAll(/\bScore\s*[:=]\s*\**\s*(\d+(?:\.\d+)?)\s*\**\s*\/\s*10\b/gi)];
  const last = overall.at(-1)?.[1];
  const draftScores: Record<string, number> = {};
  const known = new Set(stepIds);
  for (const match of text.matchAll(
    /\bDraft\s+[`*"]?([\w.:-]+?)[`*"]?\s*(?:\([^)]*\))?\s*[:=–-]\s*\**\s*(\d+(?:\.\d+)?)\s*\**\s*\/\s*10\b/gi,
  )) {
    const id = match[1] as string;
    if (known.has(id)) draftScores[id] = clamp(Number(match[2]));
  }
  return { score: last === undefined ? null : clamp(Number(last)), draftScores };
}

/**
 * The drafts one revision round rewrites: those the Critic scored below the bar, weakest
 * first; with no per-draft scores, every draft (the overall score is all there is to go on).
 */
export function draftsToRevise(
  verdict: CriticVerdict,
  stepIds: readonly string[],
  bar: number,
  max: number,
): string[] {
  if (verdict.score === null || verdict.score >= bar) return [];
  const scored = stepIds.filter((id) => verdict.draftScores[id] !== undefined);
  if (scored.length === 0) return stepIds.slice(0, max);
  return scored
    .filter((id) => (verdict.draftScores[id] as number) < bar)
    .sort((a, b) => (verdict.draftScores[a] as number) - (verdict.draftScores[b] as number))
    .slice(0, max);
}
