import type { QuotedDraft } from "./read-prompt";
import type { Random } from "./seeded-random";
import { capitalise, type Topic } from "./subject";

/**
 * The coordinator's final answer, merged from the drafts quoted in its prompt: the Coder's
 * code blocks, the Designer's key decisions, the Strategist's steps and the Critic's fixes
 * are taken word for word from those drafts (whoever wrote them, simulator or real model),
 * never regenerated, so the answer is the team's work.
 */

const FENCED = /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm;

/** Every fenced code block of a text, fences included. */
export function codeBlocksOf(text: string): string[] {
  return [...text.matchAll(FENCED)].map((m) => m[0]);
}

function withoutCode(text: string): string {
  return text.replace(FENCED, "");
}

const LIST_ITEM = /^\s{0,3}(?:\d+[.)]|[-*+])\s+\S/;
const NUMBERED = /^\s{0,3}\d+[.)]\s+\S/;

/** The top-level numbered lines of a text ("1. **Scope**: …"), in order. */
export function numberedStepsOf(text: string): string[] {
  const lines = withoutCode(text).split("\n");
  // A written piece under "### Draft" (numbered taglines) is not a plan.
  const draft = lines.findIndex((line) => /^#{2,4}\s+Draft\b/.test(line));
  return (draft >= 0 ? lines.slice(0, draft) : lines)
    .filter((line) => NUMBERED.test(line))
    .map((line) => line.trim());
}

/** The list items in the section under the first heading (or bold line) that matches. */
function itemsUnder(text: string, heading: RegExp): string[] {
  const lines = withoutCode(text).split("\n");
  const start = lines.findIndex(
    (line) => /^\s*(?:#{1,6}\s+|\*\*)/.test(line) && heading.test(line),
  );
  if (start < 0) return [];
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(?:#{1,6}\s+\S|\*\*[^*]+\*\*\s*$)/.test(line)) break;
    if (LIST_ITEM.test(line)) items.push(line.trim());
  }
  return items;
}

/** The Designer's key decisions: the "Key decisions" list, else the first list items. */
export function keyDecisionsOf(text: string): string[] {
  const decisions = itemsUnder(text, /decision/i);
  if (decisions.length > 0) return decisions;
  return withoutCode(text)
    .split("\n")
    .filter((line) => LIST_ITEM.test(line))
    .slice(0, 5)
    .map((line) => line.trim());
}

const SCORE_LINE = /^\s*(?:\*\*)?(?:Draft\s+\S+.*\d+\s*\/\s*10|Score\s*[:=]|Verdict\s*[:=])/i;

/** The Critic's fixes: the items under its issues heading, else lines that name a fix. */
export function fixesOf(review: string): string[] {
  const listed = itemsUnder(review, /\b(?:issues?|fix(?:es)?|improvements?|changes?)\b/i).filter(
    (line) => !SCORE_LINE.test(line),
  );
  if (listed.length > 0) return listed;
  return withoutCode(review)
    .split("\n")
    .filter((line) => /\bfix\b|\bshould\b|\badd\b/i.test(line) && !SCORE_LINE.test(line))
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .slice(0, 6);
}

/** The "### Draft" text a writing step produced (the email itself, the taglines). */
function writtenDraftOf(text: string): string | null {
  const match = /^#{2,4}\s+Draft\b[^\n]*\n([\s\S]*?)(?=^#{2,4}\s|(?![\s\S]))/m.exec(text);
  const body = match?.[1]?.trim();
  return body ? body : null;
}

/** The paragraph of a Coder's draft that says how to run it, if there is one. */
function runNoteOf(text: string): string | null {
  const paragraphs = withoutCode(text)
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    paragraphs.find((p) => /^(?:Run|Render|Open|Test|Call|To run|Try|Install|Use)\b/i.test(p)) ??
    null
  );
}

function approachOf(text: string): string | null {
  const first =
    withoutCode(text)
      .trim()
      .split(/\n\s*\n/)[0]
      ?.trim() ?? "";
  return /^Approach\b/i.test(first) ? first : null;
}

/** The opening paragraphs of a draft nothing else could be taken from. */
function gistOf(text: string): string {
  return withoutCode(text)
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0 && !/^#{1,6}\s/.test(p))
    .slice(0, 2)
    .join("\n\n");
}

const FENCE_NAMES: Record<string, string> = {
  tsx: "a React component",
  jsx: "a React component",
  ts: "TypeScript code",
  typescript: "TypeScript code",
  js: "JavaScript code",
  javascript: "JavaScript code",
  python: "a Python script",
  py: "a Python script",
  sql: "the SQL schema",
  html: "an HTML page",
  bash: "a Bash script",
  sh: "a shell script",
  go: "Go code",
  rust: "Rust code",
};

function codeName(block: string): string {
  const tag = /^`{3,}\s*([\w+-]+)/.exec(block)?.[1]?.toLowerCase() ?? "";
  return FENCE_NAMES[tag] ?? "the code";
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function nextStepsFor(topic: Topic, random: Random, hasCode: boolean): string[] {
  const byKind: Record<Topic["kind"], string[]> = {
    page: [
      "Drop the component into the page and check it at 375 px and 1280 px wide.",
      "Apply the review's fixes, starting with the first.",
      "Show it to two people from the audience and note where they hesitate.",
    ],
    code: [
      "Run it on a real input and add a test for each fix above.",
      "Apply the review's fixes, starting with the first.",
      "Put it under version control and add it to CI.",
    ],
    data: [
      "Run the schema on a scratch database and load a few realistic rows.",
      "Check the main query with EXPLAIN ANALYZE before adding more indexes.",
      "Write the migration that creates it in production.",
    ],
    visual: [
      "Sketch the chosen direction at small and large sizes before polishing.",
      "Check contrast and legibility on light and dark backgrounds.",
      "Collect feedback from two people who do not know the brief.",
    ],
    writing: [
      "Read the draft aloud once and cut anything that does not serve the key message.",
      "Fill in the placeholders and send a test to yourself.",
      "Apply the review's fixes before it goes out.",
    ],
    plan: [
      "Confirm the goal and the first step with whoever decides.",
      "Put dates and owners on the steps.",
      "Review progress after the first week and adjust the plan.",
    ],
    question: [
      "Try the first step today and note what changes.",
      "Come back with what you observed and refine from there.",
    ],
  };
  const pool = byKind[topic.kind];
  const steps = random.sample(pool, Math.min(pool.length, 2));
  if (hasCode && !["code", "page", "data"].includes(topic.kind)) {
    steps.push("Run the code above on a real example before relying on it.");
  }
  return steps;
}

const PART_NAMES: Record<string, string> = {
  strategist: "Plan",
  coder: "Code",
  designer: "Design",
};

/** "**Draft s2 (Coder)**: …" → "**Code**: …": the user reads parts of the answer, not drafts. */
function withPartName(fix: string): string {
  return fix.replace(/\*\*Draft \S+ \(([^)]+)\)\*\*/, (whole, role: string) => {
    const name = PART_NAMES[role.toLowerCase()];
    return name ? `**${name}**` : whole;
  });
}

export interface Merge {
  topic: Topic;
  drafts: readonly QuotedDraft[];
  review: string | null;
  random: Random;
}

/** The final answer: a lead sentence, then each kind of work the drafts hold, quoted. */
/** A follow-up that asks for less ("make it shorter"): the answer keeps only the top items. */
const SHORTER = /\b(?:shorter|brief|briefly|summari[sz]e|tl;?dr|simpler|in short)\b/i;

export function mergeDrafts({ topic, drafts, review, random }: Merge): string {
  const short = topic.followUp !== null && SHORTER.test(topic.followUp);
  const top = <T>(items: T[], count: number) => (short ? items.slice(0, count) : items);
  const byRole = (role: string) => drafts.filter((d) => d.role.toLowerCase() === role);
  const steps = top(
    byRole("strategist").flatMap((d) => numberedStepsOf(d.text)),
    3,
  );
  const written = byRole("strategist")
    .map((d) => writtenDraftOf(d.text))
    .filter((t): t is string => t !== null);
  const coders = byRole("coder");
  const blocks = coders.flatMap((d) => codeBlocksOf(d.text));
  const decisions = top(
    byRole("designer").flatMap((d) => keyDecisionsOf(d.text)),
    3,
  );
  const fixes = top((review ? fixesOf(review) : []).map(withPartName), 2);
  const others = drafts.filter(
    (d) =>
      !["strategist", "coder", "designer"].includes(d.role.toLowerCase()) ||
      (d.role.toLowerCase() === "strategist" && numberedStepsOf(d.text).length === 0) ||
      (d.role.toLowerCase() === "coder" && codeBlocksOf(d.text).length === 0) ||
      (d.role.toLowerCase() === "designer" && keyDecisionsOf(d.text).length === 0),
  );

  const contents = [
    written.length > 0 ? "a draft ready to use" : null,
    steps.length > 0 ? `a plan in ${plural(steps.length, "step")}` : null,
    blocks.length > 0 ? codeName(blocks[0] as string) : null,
    decisions.length > 0 ? `${plural(decisions.length, "design decision")}` : null,
    fixes.length > 0 ? `${plural(fixes.length, "fix", "fixes")} from the review` : null,
  ].filter((c): c is string => c !== null);
  const lead =
    contents.length > 0
      ? `${capitalise(topic.subject)}: ${contents.length > 1 ? `${contents.slice(0, -1).join(", ")} and ${contents.at(-1)}` : contents[0]}.`
      : `${capitalise(topic.subject)}: here is the answer.`;

  const out = ["## Summary", ""];
  if (topic.followUp) out.push(`Updated for your note: “${topic.followUp}”.`, "");
  out.push(lead);
  if (written.length > 0) out.push("", "### Draft", "", written.join("\n\n"));
  if (steps.length > 0) out.push("", "### Plan", "", ...steps);
  if (blocks.length > 0) {
    out.push("", "### Code", "");
    for (const coder of coders) {
      const coderBlocks = codeBlocksOf(coder.text);
      if (coderBlocks.length === 0) continue;
      const approach = approachOf(coder.text);
      if (approach) out.push(approach, "");
      out.push(coderBlocks.join("\n\n"), "");
      const run = runNoteOf(coder.text);
      if (run) out.push(run, "");
    }
    if (out.at(-1) === "") out.pop();
  }
  if (decisions.length > 0) out.push("", "### Design decisions", "", ...decisions);
  const notes = others.map((d) => gistOf(d.text)).filter((g) => g.length > 0);
  if (notes.length > 0) out.push("", "### Notes", "", notes.join("\n\n"));
  if (fixes.length > 0) out.push("", "### Fixes from the review", "", ...fixes);
  if (!short) {
    const next = nextStepsFor(topic, random, blocks.length > 0);
    out.push("", "### Next steps", "", ...next.map((n, i) => `${i + 1}. ${n}`));
  }
  return out.join("\n");
}
