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
  if (/^None: nothing in the drafts needs fixing\.$/m.test(review)) return [];
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

/** "1. **Scope**: users only." → ["Scope", "users only."]. */
function stepParts(step: string): [string, string] {
  const body = step.replace(/^\s*\d+[.)]\s*/, "").replace(/\s*\(Owner:[^)]*\)\s*$/, "");
  const bold = /^\*\*([^*]+)\*\*:?\s*(.*)$/.exec(body);
  if (bold) return [bold[1] as string, bold[2] as string];
  return [body.replace(/[.:]\s*$/, ""), ""];
}

function decisionTitleOf(line: string): string {
  const body = line.replace(/^\s*[-*+]\s*/, "");
  return (/^\*\*([^*]+)\*\*/.exec(body)?.[1] ?? body).replace(/[.:]\s*$/, "");
}

/** The name a code block defines (a function, component, class or table), in backticks. */
function definedNameOf(block: string): string | null {
  const name =
    /^\s*(?:export\s+)?(?:pub\s+)?(?:async\s+)?(?:function|def|fn|func)\s+([A-Za-z_]\w*)/m.exec(
      block,
    )?.[1] ??
    /^\s*(?:export\s+)?class\s+([A-Za-z_]\w*)/m.exec(block)?.[1] ??
    /\bCREATE TABLE\s+(\w+)/i.exec(block)?.[1] ??
    null;
  return name ? `\`${name}\`` : null;
}

interface NextStepFacts {
  steps: string[];
  blocks: string[];
  decisions: string[];
  written: string[];
  openFixes: string[];
  revised: boolean;
}

/**
 * What to do next, from what the team made for this task (decision 065): start with the
 * plan's first step, try the code by its name, mock up the first design decision, fill in the
 * draft's placeholders, take up what the review left open.
 */
function nextStepsFor(facts: NextStepFacts): string[] {
  const { steps, blocks, decisions, written, openFixes } = facts;
  const out: string[] = [];
  if (steps[0]) {
    const [title, detail] = stepParts(steps[0]);
    out.push(`Start with step 1, “${title}”${detail ? `: ${detail}` : "."}`);
  }
  if (blocks[0]) {
    const name = definedNameOf(blocks[0]) ?? codeName(blocks[0]);
    const fence = /^`{3,}\s*([\w+-]*)/.exec(blocks[0])?.[1]?.toLowerCase() ?? "";
    out.push(
      fence === "tsx" || fence === "jsx" || fence === "html"
        ? `Render ${name} in the app and check it at 375 px and 1280 px wide.`
        : fence === "sql"
          ? "Run the schema on a scratch database and load a few realistic rows."
          : facts.revised
            ? `Try ${name} on a real example, and keep its tests in CI.`
            : `Try ${name} on a real example before relying on it.`,
    );
  }
  if (decisions[0]) {
    out.push(
      `Mock up “${decisionTitleOf(decisions[0])}” first and show it to two people it is for.`,
    );
  }
  const placeholders = [...new Set(written.join("\n").match(/\{[a-z ]+\}|\[[^\]\n]+→\]/g) ?? [])];
  if (written.length > 0) {
    out.push(
      placeholders.length > 0
        ? `Fill in ${placeholders.join(" and ")}, then send a test to yourself.`
        : "Read the draft aloud once and cut anything that does not serve its key message.",
    );
  }
  if (openFixes[0]) {
    out.push(
      `Take up the review's ${openFixes.length === 1 ? "suggestion" : `${openFixes.length} suggestions`}, starting with: ${openFixes[0].replace(/^\s*\d+[.)]\s*/, "").replace(/^\*\*[^*]+\*\*:\s*/, "")}`,
    );
  }
  return out.slice(0, 3);
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

/** A follow-up that asks for less ("make it shorter"): the answer keeps only the top items. */
const SHORTER = /\b(?:shorter|brief|briefly|summari[sz]e|tl;?dr|simpler|in short)\b/i;

/** The items of a bold-titled list section ("**Changed after the review**"). */
function boldSectionItems(text: string, title: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === `**${title}**`);
  if (start < 0) return [];
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!LIST_ITEM.test(line)) break;
    items.push(line.trim().replace(/^[-*+]\s+/, ""));
  }
  return items;
}

/** A bold-titled section with its list and the paragraph after it, as written. */
function boldSection(text: string, title: string): string | null {
  const match = new RegExp(`^\\*\\*${title}\\*\\*\\n(?:[-*+] .*\\n?)+(?:\\n[^\\n*#].*)?`, "m").exec(
    text,
  );
  return match ? match[0].trimEnd() : null;
}

function joined(parts: readonly string[]): string {
  return parts.length > 1
    ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`
    : (parts[0] ?? "");
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

const SCORE = /^Score:\s*(\d+(?:\.\d+)?)\s*\/\s*10\b/im;

/** A factual answer (compose-answer.ts): a quoted, cited passage, no plan steps. */
function isAnswer(draft: QuotedDraft): boolean {
  return (
    draft.role.toLowerCase() === "strategist" &&
    numberedStepsOf(draft.text).length === 0 &&
    (/” \[\d+\]/.test(draft.text) || /\bbuilt-in simulator, not a real model\b/.test(draft.text))
  );
}

/** The answer to a question of fact: the Strategist's quoted answer, and what the review said. */
function mergeAnswer(topic: Topic, answer: QuotedDraft, review: string | null): string {
  const body = answer.text.replace(/^#{1,6}\s.*\n+/, "").trim();
  const source = /\*\*([^*]+)\*\*[^\n]*” \[(\d+)\]/.exec(body);
  const score = review ? SCORE.exec(review)?.[1] : undefined;
  const open = review ? fixesOf(review) : [];
  const checked =
    score === undefined
      ? ""
      : open.length === 0
        ? ` The Critic checked it against the passage: ${score}/10, nothing to fix.`
        : ` The Critic scored it ${score}/10.`;
  const lead = source
    ? `${capitalise(topic.subject)}: answered from ${source[1]}, quoting the passage that says it [${source[2]}].${checked}`
    : `${capitalise(topic.subject)}: no document given answers it, and the simulator has no facts of its own.${checked}`;
  const out = ["## Summary", "", lead, "", "### Answer", "", body];
  if (open.length > 0) out.push("", "### From the review", "", ...open.map(withPartName));
  return out.join("\n");
}

export function mergeDrafts({ topic, drafts, review }: Merge): string {
  const answer = drafts.find(isAnswer);
  if (answer && drafts.every((d) => d === answer || d.role.toLowerCase() === "critic")) {
    return mergeAnswer(topic, answer, review);
  }
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
  // A revised draft says what it changed; the review's fixes for it are done, not open.
  const revised = drafts
    .map((d) => ({ draft: d, changed: boldSectionItems(d.text, "Changed after the review") }))
    .filter((r) => r.changed.length > 0);
  const revisedIds = new Set(revised.map((r) => r.draft.stepId));
  const openFixes = top(
    (review ? fixesOf(review) : [])
      .filter((fix) => {
        const id = /\*\*Draft (\S+) \(/.exec(fix)?.[1];
        return !id || !revisedIds.has(id);
      })
      .map(withPartName),
    2,
  );
  const others = drafts.filter(
    (d) =>
      !["strategist", "coder", "designer"].includes(d.role.toLowerCase()) ||
      (d.role.toLowerCase() === "strategist" && numberedStepsOf(d.text).length === 0) ||
      (d.role.toLowerCase() === "coder" && codeBlocksOf(d.text).length === 0) ||
      (d.role.toLowerCase() === "designer" && keyDecisionsOf(d.text).length === 0),
  );

  // Who did what, in the words of the result: "the Coder wrote a Python script (`dedupe_rows`)".
  const made = [
    written.length > 0 ? "the Strategist drafted the text" : null,
    steps.length > 0 ? `the Strategist planned it in ${plural(steps.length, "step")}` : null,
    blocks.length > 0
      ? `the Coder wrote ${codeName(blocks[0] as string)}${definedNameOf(blocks[0] as string) ? ` (${definedNameOf(blocks[0] as string)})` : ""}`
      : null,
    decisions.length > 0 ? `the Designer set ${plural(decisions.length, "design decision")}` : null,
  ].filter((c): c is string => c !== null);
  const sentences = [
    made.length > 0
      ? `${capitalise(topic.subject)}: ${joined(made)}.`
      : `${capitalise(topic.subject)}: here is what the team made.`,
  ];
  for (const { draft, changed } of revised) {
    sentences.push(
      `After the Critic's review, the ${draft.role} ${joined(changed.map((c) => lowerFirst(c.replace(/\.$/, ""))))}.`,
    );
  }
  const score = review ? SCORE.exec(review)?.[1] : undefined;
  if (revised.length === 0 && score !== undefined) {
    sentences.push(
      openFixes.length > 0
        ? `The Critic scored the drafts ${score}/10 and suggested ${plural(openFixes.length, "change")}, listed below.`
        : `The Critic scored the drafts ${score}/10 with nothing to fix.`,
    );
  }

  const out = ["## Summary", ""];
  if (topic.followUp) out.push(`Updated for your note: “${topic.followUp}”.`, "");
  out.push(sentences.join(" "));
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
      for (const title of ["Tests", "Edge cases"]) {
        const section = boldSection(coder.text, title);
        if (section) out.push(section, "");
      }
    }
    if (out.at(-1) === "") out.pop();
  }
  if (decisions.length > 0) out.push("", "### Design decisions", "", ...decisions);
  const notes = others.map((d) => gistOf(d.text)).filter((g) => g.length > 0);
  if (notes.length > 0) out.push("", "### Notes", "", notes.join("\n\n"));
  if (openFixes.length > 0) out.push("", "### Suggestions from the review", "", ...openFixes);
  if (!short) {
    const next = nextStepsFor({
      steps,
      blocks,
      decisions,
      written,
      openFixes,
      revised: revised.length > 0,
    });
    if (next.length > 0) {
      out.push("", "### Next steps", "", ...next.map((n, i) => `${i + 1}. ${n}`));
    }
  }
  return out.join("\n");
}
