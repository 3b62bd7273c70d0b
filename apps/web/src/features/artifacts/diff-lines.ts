export interface DiffLine {
  type: "same" | "added" | "removed";
  text: string;
}

/** Past this many lines on both sides together, versions are not compared line by line. */
export const MAX_DIFF_LINES = 4_000;

/**
 * The lines of `after` against `before`: kept, added and removed, in order (a longest common
 * subsequence, after trimming the common start and end). Null when the texts are too long
 * to compare.
 */
export function diffLines(before: string, after: string): DiffLine[] | null {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length + midB.length > MAX_DIFF_LINES) return null;
  const n = midA.length;
  const m = midB.length;
  // lengths[i][j]: the longest common subsequence of midA[i..] and midB[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = lengths[i] as Uint32Array;
    const below = lengths[i + 1] as Uint32Array;
    for (let j = m - 1; j >= 0; j--) {
      row[j] =
        midA[i] === midB[j]
          ? (below[j + 1] as number) + 1
          : Math.max(below[j] as number, row[j + 1] as number);
    }
  }
  const out: DiffLine[] = a.slice(0, start).map((text) => ({ type: "same", text }));
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (midA[i] === midB[j]) {
      out.push({ type: "same", text: midA[i] as string });
      i++;
      j++;
    } else if ((lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0)) {
      out.push({ type: "removed", text: midA[i] as string });
      i++;
    } else {
      out.push({ type: "added", text: midB[j] as string });
      j++;
    }
  }
  for (; i < n; i++) out.push({ type: "removed", text: midA[i] as string });
  for (; j < m; j++) out.push({ type: "added", text: midB[j] as string });
  for (const text of a.slice(endA)) out.push({ type: "same", text });
  return out;
}
