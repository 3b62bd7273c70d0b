import { ZRunPlan } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { parseCriticVerdict } from "../../orchestration/parse-critic-verdict";
import {
  agentContent,
  criticContent,
  type DraftText,
  revisionContent,
  synthesisContent,
} from "../../orchestration/prompts";
import { composeAnswer, type SimulatorPersona } from "./compose-answer";
import { simulatePlan } from "./json-from-schema";
import { codeBlocksOf, keyDecisionsOf, numberedStepsOf } from "./merge-drafts";
import { readPrompt } from "./read-prompt";
import { hashString } from "./seeded-random";

function answer(persona: SimulatorPersona, content: string, earlier: string[] = []): string {
  return composeAnswer({
    persona,
    prompt: readPrompt(content, earlier),
    depth: 1,
    seed: hashString(content),
  });
}

/** A whole run on the simulator, through the engine's own prompt builders. */
function simulateRun(request: string) {
  const plan = simulatePlan(request, "");
  const drafts: DraftText[] = [];
  for (const step of plan.steps.filter((s) => s.role !== "critic")) {
    const inputs = drafts.filter((d) => step.dependsOn.includes(d.stepId));
    const text = answer(step.role, agentContent(request, step.task, inputs, []));
    drafts.push({ stepId: step.id, role: step.role, text });
  }
  const critic = plan.steps.find((s) => s.role === "critic");
  const review = critic ? answer("critic", criticContent(request, critic.task, drafts)) : null;
  const final = answer("coordinator", synthesisContent(request, drafts, review));
  return { plan, drafts, review, final };
}

/** [request, its subject, the roles the plan uses, the code fence the Coder uses] */
const RUNS: readonly [string, string, string[], string | null][] = [
  [
    "Build a pricing page for a SaaS app",
    "a pricing page for a SaaS app",
    ["strategist", "coder", "designer", "critic"],
    "tsx",
  ],
  [
    "Write a Python script that dedupes CSV rows",
    "a Python script that dedupes CSV rows",
    ["strategist", "coder", "critic"],
    "python",
  ],
  [
    "Can you help me design a logo for my bakery?",
    "a logo for your bakery",
    ["strategist", "designer", "critic"],
    null,
  ],
  [
    "Write a short launch email for the recipe app",
    "a short launch email for the recipe app",
    ["strategist", "critic"],
    null,
  ],
  [
    "Plan the database schema for recipes, users and ratings",
    "the database schema for recipes, users and ratings",
    ["strategist", "coder", "critic"],
    "sql",
  ],
  [
    "Build a small REST API for a task list with tests",
    "a small REST API for a task list with tests",
    ["strategist", "coder", "critic"],
    "ts",
  ],
  [
    "Build a landing page for a recipe sharing app with a signup form",
    "a landing page for a recipe sharing app with a signup form",
    ["strategist", "coder", "designer", "critic"],
    "tsx",
  ],
  [
    "How do I keep sourdough starter alive?",
    "how to keep sourdough starter alive",
    ["strategist", "critic"],
    null,
  ],
  [
    "Write a TypeScript function that checks whether a word is a palindrome",
    "a TypeScript function that checks whether a word is a palindrome",
    ["strategist", "coder", "critic"],
    "ts",
  ],
  [
    "Can you write a bash script to back up my home folder every night?",
    "a bash script to back up your home folder every night",
    ["strategist", "coder", "critic"],
    "bash",
  ],
  [
    "Create a contact form in plain HTML and CSS",
    "a contact form in plain HTML and CSS",
    ["strategist", "coder", "designer", "critic"],
    "html",
  ],
  ["Plan a product launch", "a product launch", ["strategist", "critic"], null],
];

describe("a simulated run stays on the user's subject from plan to answer", () => {
  it.each(RUNS)("%s", (request, subject, roles, fence) => {
    const { plan, drafts, review, final } = simulateRun(request);
    expect(ZRunPlan.safeParse(plan).success).toBe(true);
    expect(plan.steps.map((s) => s.role)).toEqual(roles);
    // "Why this team" reasons about the subject, and every task names it.
    expect(plan.rationale.toLowerCase()).toContain(subject.toLowerCase());
    for (const step of plan.steps) expect(step.task).toContain(subject);

    const coder = drafts.find((d) => d.role === "coder");
    if (fence) expect(coder?.text).toMatch(new RegExp(`^\`\`\`${fence}\\n`, "m"));
    else expect(coder).toBeUndefined();

    const verdict = parseCriticVerdict(
      review ?? "",
      drafts.map((d) => d.stepId),
    );
    expect(verdict.score).not.toBeNull();
    expect(Object.keys(verdict.draftScores).sort()).toEqual(drafts.map((d) => d.stepId).sort());
    for (const d of drafts) expect(review).toContain(`**Draft ${d.stepId} (`);

    // The answer quotes the team's work.
    expect(final).toMatch(/^## Summary\n/);
    for (const d of drafts) {
      for (const block of codeBlocksOf(d.text)) expect(final).toContain(block);
      if (d.role === "designer") {
        for (const decision of keyDecisionsOf(d.text)) expect(final).toContain(decision);
      }
      if (d.role === "strategist") {
        for (const step of numberedStepsOf(d.text)) expect(final).toContain(step);
      }
    }
    const fixes = (review ?? "").split("\n").filter((l) => /^\d+\. \*\*Draft/.test(l));
    expect(fixes.length).toBeGreaterThan(0);
    for (const fix of fixes) expect(final).toContain(fix.replace(/^.*?\*\*: /, ""));
  });
});

describe("each role answers on topic", () => {
  it("the Coder writes the code the subject asks for", () => {
    const code = (request: string) =>
      answer("coder", agentContent(request, "Write the code.", [], []));
    expect(code("Build a pricing page for a SaaS app")).toMatch(/export function PricingPage\(\)/);
    expect(code("Build a pricing page for a SaaS app")).not.toMatch(/type="email"/);
    expect(code("Write a Python script that dedupes CSV rows")).toContain("def dedupe_rows(");
    expect(code("Write a TypeScript function that checks a palindrome")).toContain(
      "export function isPalindrome(text: string): boolean",
    );
    expect(code("Build a small REST API for a task list")).toContain(
      "const tasks = new Map<number, Task>()",
    );
    expect(code("Plan the database schema for recipes, users and ratings")).toMatch(
      /CREATE TABLE users[\s\S]*CREATE TABLE recipes[\s\S]*CREATE TABLE ratings/,
    );
    expect(code("Make a Go CLI that counts words in a file")).toMatch(/^```go\npackage main/m);
    expect(code("Create a contact form in plain HTML and CSS")).toMatch(
      /^```html\n<!doctype html>/m,
    );
  });

  it("the Designer's key decisions are about the subject", () => {
    const design = (request: string) =>
      keyDecisionsOf(answer("designer", agentContent(request, "Specify the design.", [], []))).join(
        "\n",
      );
    expect(design("Build a pricing page for a SaaS app")).toMatch(/tiers/i);
    expect(design("Design a logo for my bakery")).toMatch(/a logo for your bakery/);
    expect(design("Create a signup form")).toMatch(/labels above fields/i);
  });

  it("the Strategist numbers its steps and the Critic names what it reviews", () => {
    const plan = answer("strategist", agentContent("Plan a product launch", "Plan it.", [], []));
    // The draft is headed by its subject: no "Plan:" label (decision 065).
    expect(plan.split("\n")[0]).toBe("## A product launch");
    expect(numberedStepsOf(plan).length).toBeGreaterThanOrEqual(4);
    const drafts: DraftText[] = [{ stepId: "s1", role: "strategist", text: plan }];
    const review = answer("critic", criticContent("Plan a product launch", "Review it.", drafts));
    const title = /\*\*([^*]+)\*\*/.exec(numberedStepsOf(plan)[0] as string)?.[1];
    expect(review).toContain(`step 1 ("${title}")`);
    expect(review).toMatch(/^Draft s1: \d+\/10$/m);
  });

  it("a revision makes the Critic's fixes for its own draft, and says what changed", () => {
    const request = "Write a Python script that dedupes CSV rows";
    const first = answer("coder", agentContent(request, "Write it.", [], []));
    const draft: DraftText = { stepId: "c1", role: "coder", text: first };
    const review = [
      "Draft c1: 5/10",
      "",
      "**Issues and fixes**",
      "1. **Draft c1 (Coder)**: `dedupe_rows` does not say which inputs it rejects. Fix: document the accepted input in a comment above it.",
      "2. **Draft c1 (Coder)**: `dedupe_rows` has no test. Fix: add one test for the normal case and one for empty input.",
      "3. **Draft c1 (Coder)**: the output file is overwritten silently. Fix: refuse to overwrite it.",
      "4. **Draft d2 (Designer)**: no colours. Fix: add them.",
      "",
      "Score: 5/10",
      "Verdict: revise",
    ].join("\n");
    const revised = answer("coder", revisionContent(request, "Write it.", draft, review));
    // The first draft, with the comment above the function and the tests added.
    expect(revised.startsWith(first.trimEnd().split("```python")[0] as string)).toBe(true);
    expect(revised).toContain(
      "# Accepts well-formed input only; empty, malformed or oversized input is rejected with an error that names the problem.\ndef dedupe_rows(",
    );
    expect(revised).toContain(
      "**Tests**\n- `dedupe_rows` with a typical input gives the expected result (the normal case).\n- `dedupe_rows` with empty input returns an empty result or a clear error, and never crashes.\n\nRun them with `pytest`.",
    );
    expect(revised).toContain(
      [
        "**Changed after the review**",
        "- Said above `dedupe_rows` which input it accepts and rejects.",
        "- Added two tests for `dedupe_rows`: the normal case and empty input.",
        "",
        "**Left open from the review**",
        "- the output file is overwritten silently. Fix: refuse to overwrite it.",
      ].join("\n"),
    );
    expect(revised).not.toContain("Done:");
    expect(revised).not.toContain("no colours");

    // The same Critic finds what it asked for done: the revised draft scores higher.
    const scoreOf = (text: string) =>
      parseCriticVerdict(
        answer("critic", criticContent(request, "Review it.", [{ ...draft, text }])),
        ["c1"],
      ).draftScores.c1 as number;
    expect(scoreOf(revised)).toBeGreaterThan(scoreOf(first));
  });

  it("the Critic and the summary name the function the code defines, not a docstring's word", () => {
    const request = "Write a Python function that parses CSV rows into dictionaries";
    const code = answer("coder", agentContent(request, "Write it.", [], []));
    expect(code).toContain('"""A Python function that parses');
    const drafts: DraftText[] = [{ stepId: "c1", role: "coder", text: code }];
    const review = answer("critic", criticContent(request, "Review it.", drafts));
    expect(review).toContain("`parse_csv_rows` is complete and runnable");
    expect(review).not.toContain("`that`");
    const final = answer("coordinator", synthesisContent(request, drafts, review));
    expect(final).toContain("the Coder wrote a Python script (`parse_csv_rows`)");
  });

  it("the Critic's score follows the draft: a quoted, cited answer has nothing to fix", () => {
    const passages = [
      {
        n: 1,
        chunk_id: "c1",
        document_id: "d1",
        document_name: "rules.pdf",
        page: 2,
        section: null,
        text: "DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.",
      },
    ];
    const question = "What is the fine for a DVD returned late?";
    const text = answer("strategist", agentContent(question, "Answer it.", [], [], passages));
    const review = answer(
      "critic",
      criticContent(question, "Review it.", [{ stepId: "s1", role: "strategist", text }]),
    );
    expect(review).toContain("Draft s1: 9/10");
    expect(review).toContain("**Issues and fixes**\nNone: nothing in the drafts needs fixing.");
    expect(review).toMatch(/^Score: 9\/10\nVerdict: approve$/m);
  });

  it("the writing draft is the text itself, with as many taglines as asked", () => {
    const { final } = simulateRun("I need eight taglines for our eco-friendly water bottle");
    const draft = /### Draft\n\n([\s\S]*?)\n\n###/.exec(final)?.[1] ?? "";
    expect(draft.split("\n")).toHaveLength(8);
    expect(draft).not.toMatch(/\byour our\b|\bour our\b/i);
  });
});

describe("CoChat answers the message it replies to", () => {
  it("names the subject of the question", () => {
    const reply = answer("chat", "How do I keep sourdough starter alive?");
    expect(reply).toMatch(/^How to keep sourdough starter alive: /);
    expect(reply).not.toContain("```");
    expect(answer("chat", "Why is my React app re-rendering twice?")).toMatch(
      /^On why your React app is re-rendering twice, work through it in this order:\n\n1\. \*\*Reproduce it reliably\*\*/,
    );
    expect(answer("chat", "What's the difference between a process and a thread?")).toContain(
      "Pick a process when its strengths match your main constraint; pick a thread when",
    );
  });

  it("writes the piece a writing request asks for", () => {
    const reply = answer("chat", "Write a short launch email for the recipe app");
    expect(reply).toContain("**Subject:** Introducing the recipe app");
  });

  it("reads a follow-up against the user's last message", () => {
    const reply = answer("chat", "Can you make it shorter?", ["Plan a product launch"]);
    expect(reply).toMatch(/^The short version on a product launch:\n\n1\. .+\n2\. .+$/);
    const post = answer("chat", "Shorter please", ["Write a blog post about composting"]);
    expect(post).toMatch(/^The short version on a blog post about composting:\n\n\*\*Composting: /);
    const budget = answer("chat", "What about the budget?", ["Plan a product launch"]);
    expect(budget).toMatch(/^Following up on a product launch \(“What about the budget”\)\./);
    const python = answer("coder", "and in Python?", [
      "Write a TypeScript function that checks a palindrome",
    ]);
    expect(python).toContain("```python\ndef is_palindrome(text: str) -> bool:");
    // Its tests come as a second block, for the evidence-based Critic (decision 068).
    expect(python).toContain("**Tests**\n\n```python\ndef test_mixed_case():");
    expect(
      answer("chat", "thanks!", ["What's the difference between a process and a thread?"]),
    ).toBe(
      "You're welcome! If anything about the difference between a process and a thread is still unclear, just ask. Shall we look at a next step?",
    );
    const hello = answer("chat", "Hi!", ["Plan a product launch"]);
    expect(hello).toContain("We were talking about a product launch.");
    expect(answer("chat", "Hello")).toMatch(/^Hello! /);
  });

  it("answers the same message the same way, and another message differently", () => {
    const a = answer("chat", "Tell me about gardening in a small city flat");
    expect(answer("chat", "Tell me about gardening in a small city flat")).toBe(a);
    expect(a).toContain("gardening in a small city flat");
    expect(answer("chat", "Tell me about beekeeping on a roof")).not.toBe(a);
  });
});
