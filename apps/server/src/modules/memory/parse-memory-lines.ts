import {
  MEMORY_KINDS,
  MEMORY_PROPOSALS_MAX,
  MEMORY_TEXT_MAX,
  oneLine,
  type TMemoryKind,
} from "@cohort/contracts";

export interface ProposedLine {
  kind: TMemoryKind;
  text: string;
}

/** A long line cut at the last word that fits, so a memory never ends mid-word. */
function fitted(text: string): string {
  if (text.length <= MEMORY_TEXT_MAX) return text;
  const cut = text.slice(0, MEMORY_TEXT_MAX - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > MEMORY_TEXT_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function lineOf(value: unknown): ProposedLine | null {
  if (typeof value !== "object" || value === null) return null;
  const { kind, text } = value as { kind?: unknown; text?: unknown };
  if (typeof text !== "string") return null;
  const clean = oneLine(text);
  if (clean.length === 0) return null;
  return {
    kind: MEMORY_KINDS.includes(kind as TMemoryKind) ? (kind as TMemoryKind) : "fact",
    text: fitted(clean),
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A model's answer as proposals, whatever shape it took: JSON lines as asked, one JSON array,
 * either inside a code fence or with list markers. Anything else is skipped; at most
 * MEMORY_PROPOSALS_MAX, without repeats.
 */
export function parseMemoryLines(answer: string): ProposedLine[] {
  const body = answer.replace(/```[a-z]*\n?/gi, "").trim();
  const whole = parsed(body);
  const values: unknown[] = Array.isArray(whole)
    ? whole
    : body.split("\n").map((line) => {
        const from = line.indexOf("{");
        const to = line.lastIndexOf("}");
        return from >= 0 && to > from ? parsed(line.slice(from, to + 1)) : undefined;
      });
  const seen = new Set<string>();
  const lines: ProposedLine[] = [];
  for (const value of values) {
    const line = lineOf(value);
    if (!line || seen.has(line.text.toLowerCase())) continue;
    seen.add(line.text.toLowerCase());
    lines.push(line);
    if (lines.length === MEMORY_PROPOSALS_MAX) break;
  }
  return lines;
}
