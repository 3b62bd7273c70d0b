import { codeBlocksOf, keyDecisionsOf, numberedStepsOf } from "./merge-drafts";
import type { QuotedDraft } from "./read-prompt";
import type { Random } from "./seeded-random";
import type { Topic } from "./subject";

/**
 * The Critic's review of the drafts quoted in its prompt, in the rubric's format
 * (parse-critic-verdict.ts reads it): one "Draft <id>: N/10" line per draft, strengths and
 * issues that point at something in a named draft, with its fix, then "Score: N/10" and the
 * verdict. A draft's score follows what the review found in it (decision 065): 9 with nothing
 * to fix, one point less for each minor issue and two for each major one; the overall score
 * is the weakest draft's. A revision that takes up the fixes (compose-answer.ts) removes what
 * was found, so the same review of the revised draft scores it higher.
 */

const REVISION = /\b(revised|revision|second draft|updated draft)\b/i;
const BAR = 7;

/** The overall score; exported so tests and the simulator agree on the rule. */
export function criticScore(seed: number, prompt: string): number {
  const base = 5 + (seed % 4);
  return REVISION.test(prompt) ? Math.min(9, base + 2) : base;
}

/** An issue and how much it costs the draft: 1 minor, 2 major. */
export interface Issue {
  text: string;
  weight: 1 | 2;
}

interface Finding {
  strength: string;
  issues: Issue[];
}

/** A draft with nothing to fix scores 9; each issue listed costs its weight; 3 at least. */
export function draftScore(issues: readonly Issue[]): number {
  return Math.max(3, 9 - issues.reduce((sum, issue) => sum + issue.weight, 0));
}

const minor = (text: string): Issue => ({ text, weight: 1 });
const major = (text: string): Issue => ({ text, weight: 2 });

/** What a revision adds for a fix (compose-answer.ts), so the review finds it done. */
export const ACCEPTS_COMMENT = /^\s*(?:#|\/\/|--|<!--)\s*Accepts\b/m;
export const TESTS_SECTION = /^\*\*Tests\*\*/m;

/** The first name a code block defines: a function, component, class or table. */
function definedName(code: string): string | null {
  const patterns = [
    // At the start of a line: "a function that parses" in a docstring defines nothing.
    /^\s*(?:export\s+)?(?:pub\s+)?(?:async\s+)?(?:function|def|fn|func)\s+([A-Za-z_]\w*)/m,
    /^\s*(?:export\s+)?class\s+([A-Za-z_]\w*)/m,
    /\bCREATE TABLE\s+(\w+)/i,
    /\bconst\s+([A-Za-z_]\w*)\s*=/,
    /\binterface\s+([A-Za-z_]\w*)/,
  ];
  for (const pattern of patterns) {
    const name = pattern.exec(code)?.[1];
    if (name) return name;
  }
  return null;
}

function stepTitle(step: string): string {
  const bold = /\*\*([^*]+)\*\*/.exec(step)?.[1];
  const text = (bold ?? step.replace(/^\s*\d+[.)]\s*/, "")).replace(/[:.]\s*$/, "");
  return text.length > 60 ? `${text.slice(0, 57).replace(/\s+\S*$/, "")}…` : text;
}

function decisionTitle(line: string): string {
  return stepTitle(line.replace(/^\s*[-*+]\s*/, ""));
}

function reviewCode(draft: QuotedDraft, topic: Topic): Finding {
  const [block] = codeBlocksOf(draft.text);
  if (!block) {
    return {
      strength: "the approach is explained before any detail",
      issues: [
        major(
          `there is no code block for ${topic.subject}. Fix: add the working code in a fenced block with its language.`,
        ),
      ],
    };
  }
  const name = definedName(block) ?? "the main function";
  const issues: Issue[] = [];
  if (/\bTIERS\b|\$\d+/.test(block)) {
    issues.push(
      minor(
        `the prices are hard-coded in \`${name}\`. Fix: read them from the same config the checkout uses, so the page can never show a stale price.`,
      ),
    );
  }
  if (/<form|<input/.test(block) && !/aria-describedby/.test(block)) {
    issues.push(
      minor(
        "the error text is not tied to its field. Fix: give each error an id and point the input's `aria-describedby` at it.",
      ),
    );
  }
  if (/CREATE TABLE/i.test(block) && !/UNIQUE\s*\((?!\s*id)/i.test(block)) {
    issues.push(
      major(
        "nothing stops the same row being stored twice. Fix: add a UNIQUE constraint on the natural key (for example user and item).",
      ),
    );
  }
  if (
    /\bfetch\(|createServer|FastAPI|HTTPException/.test(block) &&
    !/\b(?:console\.(?:error|warn)|logger|logging)\b/.test(block)
  ) {
    issues.push(
      minor(
        "failures are answered without being logged. Fix: log each 4xx/5xx with the request path so problems can be traced.",
      ),
    );
  }
  const testable = !/^`{3,}\s*(?:sql|html|css)\b/i.test(block);
  if (
    testable &&
    !TESTS_SECTION.test(draft.text) &&
    !/\btest|assert|expect\(|pytest|cargo test/i.test(draft.text)
  ) {
    issues.push(
      major(
        `\`${name}\` has no test. Fix: add one test for the normal case and one for empty input.`,
      ),
    );
  }
  if (!ACCEPTS_COMMENT.test(block)) {
    issues.push(
      minor(
        `\`${name}\` does not say which inputs it rejects. Fix: document the accepted input in a comment above it.`,
      ),
    );
  }
  return {
    strength: `\`${name}\` is complete and runnable, with input checks rather than a happy path only`,
    issues,
  };
}

function reviewDesign(draft: QuotedDraft): Finding {
  const decisions = keyDecisionsOf(draft.text);
  const first = decisions[0] ? decisionTitle(decisions[0]) : "the layout";
  const issues: Issue[] = [];
  if (!/\b(?:\d{3,4}\s?px|breakpoint|mobile)\b/i.test(draft.text)) {
    issues.push(
      major(`the "${first}" decision gives no breakpoint. Fix: say what stacks below 600 px.`),
    );
  }
  if (!/\berror\b/i.test(draft.text)) {
    issues.push(
      major(
        "there is no error state. Fix: describe what the user sees when loading fails, and how to retry.",
      ),
    );
  }
  if (!/^#{2,4}\s+Measure of success\b/im.test(draft.text)) {
    issues.push(
      minor(
        `the "${first}" decision has no measure of success. Fix: name one number to watch (for example the share of visitors who reach the primary action).`,
      ),
    );
  }
  if (decisions[1] && !/^#{2,4}\s+Exact wording\b/im.test(draft.text)) {
    issues.push(
      minor(
        `"${decisionTitle(decisions[1])}" needs an example. Fix: add the exact wording of the main button and the empty state.`,
      ),
    );
  }
  return {
    strength: `the key decisions start with "${first}", and the states and accessibility are covered`,
    issues,
  };
}

/** A factual answer (compose-answer.ts factualAnswer): a quoted, cited passage or a plain "cannot". */
function isAnswer(text: string): boolean {
  return /” \[\d+\]/.test(text) || /\bCohort's built-in simulator, not a real model\b/.test(text);
}

/** A factual answer (decision 056): judged on its source, not as a plan. */
function reviewAnswer(draft: QuotedDraft): Finding {
  const quoted = /” \[\d+\]/.test(draft.text);
  return quoted
    ? {
        strength:
          "it answers the question with the passage that says it, quoted word for word and cited, and adds nothing the passage does not say",
        issues: [],
      }
    : {
        strength: "it says plainly that it cannot answer from facts, and how to get an answer",
        issues: [minor("no source is given. Fix: attach the document that says it and ask again.")],
      };
}

function reviewPlan(draft: QuotedDraft): Finding {
  const steps = numberedStepsOf(draft.text);
  if (steps.length === 0 && isAnswer(draft.text)) return reviewAnswer(draft);
  const issues: Issue[] = [];
  const first = steps[0] ? stepTitle(steps[0]) : null;
  const last = steps.at(-1) ? stepTitle(steps.at(-1) as string) : null;
  if (steps.length === 0) {
    issues.push(major("the plan has no numbered steps. Fix: turn it into 3 to 6 ordered steps."));
  }
  if (first && !/\bowner\b/i.test(steps[0] as string)) {
    issues.push(
      minor(
        `step 1 ("${first}") has no owner or date. Fix: give each step an owner and a target day.`,
      ),
    );
  }
  if (last && steps.length > 2 && !/^\*\*How success is measured\*\*/m.test(draft.text)) {
    issues.push(
      minor(
        `step ${steps.length} ("${last}") does not say how success is measured. Fix: add one number and the date it is checked.`,
      ),
    );
  }
  if (!/\brisk/i.test(draft.text)) {
    issues.push(
      major("no risks are named. Fix: list the two most likely problems, each with a mitigation."),
    );
  }
  return {
    strength:
      steps.length > 0
        ? `the ${steps.length} steps are in a sensible order, from "${first}" to "${last}"`
        : "the intent is clear",
    issues,
  };
}

function reviewOther(draft: QuotedDraft, topic: Topic): Finding {
  const heading = /^#{1,6}\s+(.+)$/m.exec(draft.text)?.[1]?.trim();
  return {
    strength: heading ? `it is organised, starting with "${heading}"` : "it stays on the request",
    issues: /acceptance criteria/i.test(draft.text)
      ? []
      : [
          minor(
            `it does not say how ${topic.subject} will be checked. Fix: add two acceptance criteria a reviewer can test.`,
          ),
        ],
  };
}

function findingsOf(draft: QuotedDraft, topic: Topic): Finding {
  switch (draft.role.toLowerCase()) {
    case "coder":
      return reviewCode(draft, topic);
    case "designer":
      return reviewDesign(draft);
    case "strategist":
      return reviewPlan(draft);
    default:
      return codeBlocksOf(draft.text).length > 0
        ? reviewCode(draft, topic)
        : reviewOther(draft, topic);
  }
}

export interface ReviewInput {
  topic: Topic;
  drafts: readonly QuotedDraft[];
  /** The whole prompt, for the score rule. */
  prompt: string;
  seed: number;
  depth: number;
  random: Random;
}

/** A review when the prompt quotes no drafts (a direct call): about the request itself. */
function reviewRequest(input: ReviewInput, score: number): string {
  const { topic, random } = input;
  const issues = random.sample(
    [
      `The acceptance criteria for ${topic.subject} are vague. Fix: state two measurable checks, such as a time or a count.`,
      `Edge cases are missing. Fix: cover empty, invalid and oversized input for ${topic.subject}.`,
      "No test shows the main path works. Fix: add one test for the core scenario.",
      "Accessibility is only implied. Fix: name the labels, focus order and contrast targets.",
    ],
    score >= BAR ? 2 : 3,
  );
  return [
    "## Review",
    "",
    "**Strengths**",
    `- It answers the request for ${topic.subject} directly.`,
    "",
    "**Issues and fixes**",
    ...issues.map((issue, i) => `${i + 1}. ${issue}`),
    "",
    `Score: ${score}/10`,
    `Verdict: ${score >= BAR ? "approve" : "revise"}`,
  ].join("\n");
}

export function writeReview(input: ReviewInput): string {
  if (input.drafts.length === 0) return reviewRequest(input, criticScore(input.seed, input.prompt));
  // A thorough model lists more of what it finds (and so scores stricter); a terse one less.
  const listed = Math.max(1, Math.min(4, Math.round(3 * input.depth)));
  const perDraft = input.drafts.map((d) => {
    const finding = findingsOf(d, input.topic);
    const issues = finding.issues.slice(0, listed);
    return { draft: d, finding, issues, score: draftScore(issues) };
  });
  // The overall score is the weakest draft's: the answer is only as good as its weakest part.
  const score = Math.min(...perDraft.map((d) => d.score));
  const issues = perDraft.flatMap(({ draft, issues: found }) =>
    found.map((issue) => `**Draft ${draft.stepId} (${draft.role})**: ${issue.text}`),
  );
  return [
    "## Review",
    "",
    ...perDraft.map(({ draft, score: s }) => `Draft ${draft.stepId}: ${s}/10`),
    "",
    "**Strengths**",
    ...perDraft.map(
      ({ draft, finding }) => `- Draft ${draft.stepId} (${draft.role}): ${finding.strength}.`,
    ),
    "",
    "**Issues and fixes**",
    ...(issues.length > 0
      ? issues.map((issue, i) => `${i + 1}. ${issue}`)
      : ["None: nothing in the drafts needs fixing."]),
    "",
    `Score: ${score}/10`,
    `Verdict: ${score >= BAR ? "approve" : "revise"}`,
  ].join("\n");
}
