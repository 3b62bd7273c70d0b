import type { TRunPassage } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { agentContent } from "../../orchestration/prompts";
import { composeAnswer, type SimulatorPersona } from "./compose-answer";
import { simulatePlan } from "./json-from-schema";
import { readPrompt } from "./read-prompt";
import { hashString } from "./seeded-random";
import { kindOf, subjectOf } from "./subject";

/** Decision 056: the simulator answers the question it was asked, in the task's own nouns. */
const passage = (n: number, text: string): TRunPassage => ({
  n,
  chunk_id: `c${n}`,
  document_id: "rules",
  document_name: "Library rules.pdf",
  page: n,
  section: null,
  text,
});

const RULES = [
  passage(1, "Books are lent for three weeks. A late book costs 0.20 per day."),
  passage(
    2,
    "Opening hours. The library opens at nine. DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.",
  ),
];

function answer(
  persona: SimulatorPersona,
  request: string,
  passages: TRunPassage[] = [],
  modelId?: string,
) {
  const content = agentContent(request, "Answer it", [], [], passages);
  return composeAnswer({
    persona,
    prompt: readPrompt(content),
    depth: 1,
    seed: hashString(content),
    ...(modelId ? { modelId } : {}),
  });
}

const DVD = "What is the fine for a DVD returned late at the library?";

describe("questions of fact", () => {
  it("are questions, even when they name a library", () => {
    expect(kindOf(DVD)).toBe("question");
    expect(subjectOf(DVD)).toBe("the fine for a DVD returned late at the library");
    expect(simulatePlan(DVD, "").steps.map((s) => [s.role, s.task])).toEqual([
      [
        "strategist",
        "Answer the fine for a DVD returned late at the library, quoting and citing the passage that says it.",
      ],
      [
        "critic",
        "Review the drafts for the fine for a DVD returned late at the library: list concrete fixes and score them out of 10.",
      ],
    ]);
  });

  it("are answered with the sentence that answers them, quoted and cited, not a plan", () => {
    for (const persona of ["chat", "strategist"] as const) {
      const text = answer(persona, DVD, RULES);
      expect(text).toContain(
        "**Library rules.pdf** answers it: “DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.” [2]",
      );
      expect(text).not.toContain("Clarify the goal");
      expect(text).not.toContain("Books are lent");
    }
  });

  it("say so plainly when nothing given answers them", () => {
    expect(answer("chat", DVD)).toBe(
      [
        "I can't answer that from facts: this is Cohort's built-in simulator, not a real model, so it knows nothing about the fine for a DVD returned late at the library of its own.",
        "",
        "- Attach the document that covers it and ask again: the answer will quote the passage that says it and cite it.",
        "- Or pick a real model: add a provider key in Settings, or run a local model server such as Ollama.",
      ].join("\n"),
    );
  });

  it("keep a length note out of the subject", () => {
    const request = "Explain in two sentences what an overdue fine cap is";
    expect(subjectOf(request)).toBe("an overdue fine cap");
    expect(kindOf(request)).toBe("question");
  });
});

describe("CoChat's leads", () => {
  it("read as sentences", () => {
    for (const request of [
      "Plan the move of our library to a new building",
      "Build a REST API for library lending",
    ]) {
      const text = answer("chat", request);
      expect(text).not.toContain("A practical way into");
      expect(text.split("\n")[0]).toMatch(/^Here is (?:a plan for|how I would|a way to build) /);
    }
  });
});

describe("the task's own nouns", () => {
  it("a lending API lends books to members through loans", () => {
    const code = answer("coder", "Build a REST API for library lending");
    expect(code).toContain("/loans (bookId, memberId, dueOn)");
    expect(code).toContain(
      "interface Loan {\n  id: number;\n  bookId: number;\n  memberId: number;",
    );
    expect(code).not.toMatch(/\btitle\b|\bdone\b/);
  });

  it("a library's data model has books, members and loans", () => {
    const code = answer("coder", "Design the data model for a library lending system");
    expect(code).toContain("one table per entity (books, members, loans)");
    expect(code).toContain("  book_id     bigint NOT NULL REFERENCES books (id),");
    expect(code).toContain("  member_id   bigint NOT NULL REFERENCES members (id),");
  });

  it("a library's fine rules take its loans, not a list of ids and values", () => {
    const code = answer(
      "coder",
      "Write the overdue-fine rules for a small library's lending service",
    );
    expect(code).toContain(
      "export interface Loan {\n  id: number;\n  bookId: number;\n  memberId: number;\n  dueOn: string;\n}",
    );
    expect(code).toContain("(loans: readonly Loan[]): Map<number, number> {");
    expect(code).toContain("counts the loans of each member");
    expect(code).not.toMatch(/\bvalue: number\b|\bitems\b/);
  });

  it("an API for something unknown is not a to-do list", () => {
    const code = answer("coder", "Build a REST API for bird sightings");
    expect(code).not.toMatch(/\bdone\b/);
    expect(code).toContain("name: string;");
  });
});

describe("models", () => {
  it("take their own angle, so a re-run on another model differs", () => {
    const request = "Plan the move of our library to a new building";
    const angle = (modelId: string) =>
      /\*\*Angle:\*\* (.+)/.exec(answer("strategist", request, [], modelId))?.[1];
    const angles = ["coreason", "coquick", "codepth", "cologic"].map(angle);
    expect(new Set(angles).size).toBe(4);
    expect(angles[0]).toBe("start from the riskiest assumption and test it before anything else.");
  });
});
