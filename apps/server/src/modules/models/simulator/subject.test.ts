import { describe, expect, it } from "vitest";
import { agentContent, criticContent, synthesisContent } from "../../orchestration/prompts";
import { kindOf, languageOf, subjectOf, topicOf } from "./subject";

/** [request, subject, kind, language] */
const CASES: readonly [string, string, string, string][] = [
  ["Build a pricing page for a SaaS app", "a pricing page for a SaaS app", "page", "tsx"],
  [
    "Write a Python script that dedupes CSV rows",
    "a Python script that dedupes CSV rows",
    "code",
    "python",
  ],
  ["Can you help me design a logo for my bakery?", "a logo for your bakery", "visual", "ts"],
  [
    "How do I keep sourdough starter alive?",
    "how to keep sourdough starter alive",
    "question",
    "ts",
  ],
  [
    "Hi team! We run a small bakery in Leeds. Could you build us a website for online orders, with a menu, a basket and a checkout that works on phones and a newsletter signup?",
    "a website for online orders",
    "page",
    "tsx",
  ],
  [
    "Write a short launch email for the recipe app",
    "a short launch email for the recipe app",
    "writing",
    "ts",
  ],
  [
    "I need copy and eight taglines for our eco-friendly water bottle launch",
    "copy and eight taglines for your eco-friendly water bottle launch",
    "writing",
    "ts",
  ],
  ["Plan a product launch", "a product launch", "plan", "ts"],
  ["Why does this throw?\n```js\nJSON.parse(undefined)\n```", "why does this throw", "code", "js"],
  ["```py\nprint(sorted(set(rows)))\n```", "the code you shared", "code", "python"],
  [
    "Écris une fonction Python qui supprime les doublons d'une liste",
    "écris une fonction Python qui supprime les doublons d'une liste",
    "code",
    "python",
  ],
  [
    "Plan the database schema for recipes, users and ratings",
    "the database schema for recipes, users and ratings",
    "data",
    "sql",
  ],
  ["What is the best way to learn Rust?", "the best way to learn Rust", "question", "rust"],
  [
    "Task: refactor the auth middleware\n- keep the API\n- add tests",
    "refactor the auth middleware",
    "code",
    "ts",
  ],
  [
    "We are a team of four volunteers running a community garden with around sixty members and we need a simple way to schedule watering shifts over the summer holidays",
    "a simple way to schedule watering shifts over the summer holidays",
    "plan",
    "ts",
  ],
  [
    "Please create a responsive dashboard for our support team that shows open tickets, response times per agent, customer satisfaction trends and a weekly export to CSV",
    "a responsive dashboard for your support team that shows open tickets",
    "page",
    "tsx",
  ],
  [
    "Can you write a bash script to back up my home folder every night?",
    "a bash script to back up your home folder every night",
    "code",
    "bash",
  ],
  [
    "Create a contact form in plain HTML and CSS",
    "a contact form in plain HTML and CSS",
    "page",
    "html",
  ],
  ["Tell me about gardening in a small city flat", "gardening in a small city flat", "plan", "ts"],
  ["Review: a plan to launch a newsletter", "a plan to launch a newsletter", "writing", "ts"],
  ["日本語でメールを書いてください", "日本語でメールを書いてください", "plan", "ts"],
  ["Hi", "your request", "plan", "ts"],
  [
    "Design the overdue-fine rules for a small library's lending service: a daily fine, a cap per loan, and a data model for books, members and loans.",
    "the overdue-fine rules for a small library's lending service",
    "code",
    "ts",
  ],
];

const SCAFFOLDING = /---|Your task|drafts|```|\n/;
const DANGLING = /\s(?:a|an|the|and|or|of|for|to|with|in|on|that|which)$/i;

describe("subjectOf: what a request is about", () => {
  it.each(CASES)("%j → %j", (request, subject, kind, language) => {
    expect(subjectOf(request)).toBe(subject);
    expect(kindOf(request)).toBe(kind);
    expect(languageOf(request)).toBe(language);
  });

  it("never leaks the engine's scaffolding, half a phrase or an over-long title", () => {
    for (const [request, subject] of CASES) {
      const drafts = [{ stepId: "s1", role: "coder" as const, text: "```ts\nconst x = 1;\n```" }];
      for (const prompt of [
        agentContent(request, "Write the code.", drafts, []),
        criticContent(request, "Review the drafts.", drafts),
        synthesisContent(request, drafts, "1. Add tests.\nScore: 6/10"),
      ]) {
        const seen = subjectOf(prompt);
        expect(seen).toBe(subject);
        expect(seen).not.toMatch(SCAFFOLDING);
        expect(seen).not.toMatch(DANGLING);
        expect(seen.length).toBeLessThanOrEqual(72);
      }
    }
  });

  it("cuts a long request at a clause, not in the middle of a phrase", () => {
    const subject = subjectOf(
      `Design ${"a very long and winding request about many things ".repeat(4)}`,
    );
    expect(subject.length).toBeLessThanOrEqual(72);
    expect(subject).not.toMatch(DANGLING);
    expect(subject.startsWith("a very long and winding request")).toBe(true);
  });

  it("reads a short follow-up as being about the earlier request", () => {
    expect(topicOf("Now make it shorter", ["Outline a blog launch"])).toEqual({
      subject: "a blog launch",
      kind: "writing",
      request: "Outline a blog launch\nNow make it shorter",
      followUp: "make it shorter",
    });
    const python = topicOf("and in Python?", [
      "Write a TypeScript function that checks a palindrome",
    ]);
    expect(python.subject).toBe("a TypeScript function that checks a palindrome");
    expect(python.followUp).toBe("in Python");
    expect(languageOf(python.request)).toBe("python");
    // With nothing before it, a follow-up is taken as it stands.
    expect(topicOf("Now make it shorter").subject).toBe("make it shorter");
  });
});
