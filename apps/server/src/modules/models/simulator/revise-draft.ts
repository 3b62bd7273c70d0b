import { codeBlocksOf, numberedStepsOf } from "./merge-drafts";
import type { SubjectKind } from "./subject";
import { RISKS } from "./subject-risks";

/**
 * A revision that does what the Critic asked (decision 065): each fix the simulator's Critic
 * writes (write-review.ts) has a change here that makes it true of the draft — the comment
 * above the function, the tests, each step's owner and day, the risks, the number to watch —
 * and the draft ends with what changed, in the past tense. A fix it cannot make (a real
 * model's review, a change deep in the code) is listed as left open, never as done.
 */

interface Change {
  /** The fix's words this change answers. */
  fix: RegExp;
  apply(draft: string, context: RevisionContext): string | null;
  /** What changed, for the "Changed after the review" list. */
  said(context: RevisionContext): string;
}

export interface RevisionContext {
  kind: SubjectKind;
  subject: string;
  /** The name the fix is about ("`dedupeRows`"), when it names one. */
  name: string | null;
}

const COMMENT: Record<string, [string, string]> = {
  python: ["# ", ""],
  py: ["# ", ""],
  bash: ["# ", ""],
  sh: ["# ", ""],
  sql: ["-- ", ""],
  html: ["<!-- ", " -->"],
};

function fenceOf(block: string): string {
  return /^`{3,}\s*([\w+-]*)/.exec(block)?.[1]?.toLowerCase() ?? "";
}

/** The first code block with a comment line inserted above the line that defines `name`. */
function withCommentAbove(draft: string, name: string | null, comment: string): string | null {
  const [block] = codeBlocksOf(draft);
  if (!block) return null;
  const [open, close] = COMMENT[fenceOf(block)] ?? ["// ", ""];
  const lines = block.split("\n");
  const bare = (name ?? "").replace(/`/g, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  let at = bare
    ? lines.findIndex((line, i) => i > 0 && new RegExp(`\\b${bare}\\b`).test(line))
    : -1;
  if (at < 0) at = 1;
  // Above the function's own doc comment or decorators, not between them and the function.
  while (at > 1 && /^\s*(?:\/\*\*|\*|\*\/|@|"""|\/\/\/)/.test(lines[at - 1] as string)) at -= 1;
  const indent = /^\s*/.exec(lines[at] ?? "")?.[0] ?? "";
  lines.splice(at, 0, `${indent}${open}${comment}${close}`);
  return draft.replace(block, lines.join("\n"));
}

const TEST_COMMAND: Record<string, string> = {
  python: "pytest",
  py: "pytest",
  go: "go test ./...",
  rust: "cargo test",
  bash: "bats",
  sh: "bats",
};

function addTests(draft: string, { name }: RevisionContext): string | null {
  const [block] = codeBlocksOf(draft);
  if (!block) return null;
  const called = name ?? "the main function";
  const command = TEST_COMMAND[fenceOf(block)] ?? "npx vitest run";
  return `${draft.trimEnd()}\n\n**Tests**\n- ${called} with a typical input gives the expected result (the normal case).\n- ${called} with empty input returns an empty result or a clear error, and never crashes.\n\nRun them with \`${command}\`.`;
}

const OWNERS = ["you", "the project lead", "the team", "the project lead", "you", "the team"];

function withOwners(draft: string): string | null {
  const steps = numberedStepsOf(draft);
  if (steps.length === 0) return null;
  let out = draft;
  steps.forEach((step, i) => {
    out = out.replace(
      step,
      `${step.replace(/\s*$/, "")} (Owner: ${OWNERS[i % OWNERS.length]}; by day ${(i + 1) * 2}.)`,
    );
  });
  return out;
}

const MEASURES: Record<SubjectKind, string> = {
  page: "the share of visitors who reach the primary action, compared week on week from launch",
  code: "the share of real inputs handled without an error, checked after the first week of use",
  data: "the main query's time on realistic data, checked before launch and a month after",
  visual: "how many of five people shown it name the brand's three words unprompted",
  writing: "the reply or click rate of the first send, checked two days after it goes out",
  plan: "whether the goal of step 1 is met, checked on the last step's day against the number agreed there",
  question: "whether the outcome you named in step 1 happened, checked a week after starting",
};

/** The section under a "### Heading" (or the end), with `lines` added at its end. */
function addUnder(draft: string, heading: RegExp, lines: string[]): string {
  const all = draft.split("\n");
  const start = all.findIndex((line) => heading.test(line));
  if (start < 0) return `${draft.trimEnd()}\n${lines.join("\n")}`;
  let end = all.findIndex((line, i) => i > start && /^#{1,6}\s/.test(line));
  if (end < 0) end = all.length;
  while (end > start + 1 && (all[end - 1] as string).trim() === "") end -= 1;
  all.splice(end, 0, ...lines);
  return all.join("\n");
}

const CHANGES: readonly Change[] = [
  {
    fix: /does not say which inputs it rejects/,
    apply: (draft, c) =>
      withCommentAbove(
        draft,
        c.name,
        "Accepts well-formed input only; empty, malformed or oversized input is rejected with an error that names the problem.",
      ),
    said: (c) => `Said above ${c.name ?? "the main function"} which input it accepts and rejects.`,
  },
  {
    fix: /has no test\b/,
    apply: addTests,
    said: (c) =>
      `Added two tests for ${c.name ?? "the main function"}: the normal case and empty input.`,
  },
  {
    fix: /has no owner or date/,
    apply: withOwners,
    said: () => "Gave each step an owner and a target day.",
  },
  {
    fix: /does not say how success is measured/,
    apply: (draft, c) => `${draft.trimEnd()}\n\n**How success is measured**: ${MEASURES[c.kind]}.`,
    said: () => "Said how success is measured, and when it is checked.",
  },
  {
    fix: /no risks are named/,
    apply: (draft, c) =>
      `${draft.trimEnd()}\n\n**Risks**\n${RISKS[c.kind]
        .slice(0, 2)
        .map((r) => `- ${r}`)
        .join("\n")}`,
    said: () => "Named the two most likely risks, each with a mitigation.",
  },
  {
    fix: /has no measure of success/,
    apply: (draft, c) =>
      `${draft.trimEnd()}\n\n### Measure of success\n- ${MEASURES[c.kind === "page" ? "page" : c.kind]}.`,
    said: () => "Added the number to watch, and when it is checked.",
  },
  {
    fix: /needs an example\. Fix: add the exact wording/,
    apply: (draft) =>
      `${draft.trimEnd()}\n\n### Exact wording\n- Main button: “Get started”.\n- Empty state: “Nothing here yet. Add the first one to see it here.”`,
    said: () => "Added the exact wording of the main button and the empty state.",
  },
  {
    fix: /gives no breakpoint/,
    apply: (draft) =>
      addUnder(draft, /^#{2,4}\s+Layout\b/, [
        "- Below 600 px everything stacks into one column, the primary action first.",
      ]),
    said: () => "Said what stacks below 600 px.",
  },
  {
    fix: /there is no error state/,
    apply: (draft) =>
      addUnder(draft, /^#{2,4}\s+States\b/, [
        "- Error: what failed in plain words, a Try again button, and the user's input kept.",
      ]),
    said: () => "Described the error state and how to retry.",
  },
  {
    fix: /will be checked\. Fix: add two acceptance criteria/,
    apply: (draft, c) =>
      `${draft.trimEnd()}\n\n**Acceptance criteria**\n1. Someone who was not involved can use ${c.subject} without help.\n2. Every part the request names is there and has been checked once end to end.`,
    said: () => "Added two acceptance criteria a reviewer can test.",
  },
];

/** "`dedupeRows` has no test" → "`dedupeRows`". */
function nameIn(fix: string): string | null {
  return /^(`[^`]+`)/.exec(fix)?.[1] ?? null;
}

export interface Revision {
  text: string;
  changed: string[];
  open: string[];
}

/** The first draft with the fixes made that can be made, and the list of what changed. */
export function reviseDraft(
  firstDraft: string,
  fixes: readonly string[],
  context: Omit<RevisionContext, "name">,
): Revision {
  let text = firstDraft.trimEnd();
  const changed: string[] = [];
  const open: string[] = [];
  for (const fix of fixes) {
    const change = CHANGES.find((c) => c.fix.test(fix));
    const withName = { ...context, name: nameIn(fix) };
    const applied = change?.apply(text, withName) ?? null;
    if (change && applied !== null && applied !== text) {
      text = applied;
      changed.push(change.said(withName));
    } else {
      open.push(fix);
    }
  }
  const out = [text];
  if (changed.length > 0) {
    out.push("", "**Changed after the review**", ...changed.map((c) => `- ${c}`));
  }
  if (open.length > 0) {
    out.push("", "**Left open from the review**", ...open.map((f) => `- ${f}`));
  }
  return { text: out.join("\n"), changed, open };
}
