import { capitalise, subjectOf, toSecondPerson } from "./subject";

/**
 * The simulator's answer to the memory call (memory/memory-prompt.ts): JSON lines drawn from
 * the user's request, the same for the same request. What the user says about themselves
 * ("I prefer…", "we use…", "my name is…") becomes facts and preferences in their own words;
 * every request also leaves one fact about what the user is working on.
 */
const MEMORY_CALL = /\bfacts and preferences worth remembering\b/;
const REQUEST_HEADING = "The user's request:\n";
const ANSWER_HEADING = "\n\n---\nThe team's final answer:";
const KNOWN_HEADING = "\n\n---\nAlready remembered:\n";

/** What follows "I prefer", up to the sentence's end or the next thing the user says of themselves. */
const CLAUSE = "((?:(?!\\s+(?:and|but)\\s+(?:i|we|my|our)\\b)[^.,;!?\\n]){2,120})";
type Kind = "fact" | "preference";
const SELF_STATEMENTS: readonly [RegExp, Kind, (match: RegExpMatchArray) => string][] = [
  [
    new RegExp(
      `\\b(?:i|we) (?:really )?(?:prefer|like|love|want answers|always want) ${CLAUSE}`,
      "gi",
    ),
    "preference",
    (m) => `You prefer ${m[1]}.`,
  ],
  [
    new RegExp(`\\b(?:i|we) (?:use|work with|am using|are using|build with) ${CLAUSE}`, "gi"),
    "fact",
    (m) => `You use ${m[1]}.`,
  ],
  [
    /\b[Mm]y name is (\p{Lu}[\p{L}'-]*(?: \p{Lu}[\p{L}'-]*)?)/gu,
    "fact",
    (m) => `Your name is ${m[1]}.`,
  ],
  [
    new RegExp(`\\b(?:i am|i'm|i work as) (an? ${CLAUSE})`, "gi"),
    "fact",
    (m) => `You are ${m[1]}.`,
  ],
  [
    new RegExp(
      `\\b(?:our|my) (company|team|product|app|startup|project|shop|business) (?:is called|is named) ${CLAUSE}`,
      "gi",
    ),
    "fact",
    (m) => `Your ${m[1]} is called ${m[2]}.`,
  ],
];

/** The user's request inside the memory call's prompt. */
function requestOf(turn: string): string {
  const from = turn.indexOf(REQUEST_HEADING);
  if (from < 0) return "";
  const rest = turn.slice(from + REQUEST_HEADING.length);
  const to = rest.indexOf(ANSWER_HEADING);
  return (to < 0 ? rest : rest.slice(0, to)).trim();
}

/** What the user already keeps, as the prompt lists it ("- You prefer …"). */
function knownOf(turn: string): string[] {
  const from = turn.indexOf(KNOWN_HEADING);
  if (from < 0) return [];
  return turn
    .slice(from + KNOWN_HEADING.length)
    .split("\n")
    .filter((line) => line.startsWith("- "))
    .map((line) => line.slice(2));
}

/** A line says the same as a known one when it opens with the same three words (a model would see that). */
function opening(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 3).join(" ");
}

function statementsIn(request: string): { kind: Kind; text: string }[] {
  const found: { at: number; kind: Kind; text: string }[] = [];
  for (const [pattern, kind, write] of SELF_STATEMENTS) {
    for (const match of request.matchAll(pattern)) {
      found.push({ at: match.index, kind, text: capitalise(toSecondPerson(write(match)).trim()) });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ kind, text }) => ({ kind, text }));
}

/** The memory call's answer, or null when the call is not the memory call. */
export function simulatedMemoryLines(system: string, turn: string): string | null {
  if (!MEMORY_CALL.test(system)) return null;
  const request = requestOf(turn);
  if (!request) return "";
  const known = new Set(knownOf(turn).map(opening));
  const lines = [
    ...statementsIn(request),
    { kind: "fact" as const, text: `You asked the team about ${subjectOf(request)}.` },
  ];
  return lines
    .filter((line) => !known.has(opening(line.text)))
    .slice(0, 5)
    .map((line) => JSON.stringify(line))
    .join("\n");
}
