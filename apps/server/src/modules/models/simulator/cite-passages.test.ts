import { citedNumbers, type TRunPassage } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { agentContent, planContent, synthesisContent } from "../../orchestration/prompts";
import { bestQuote, quotableSentence } from "./cite-passages";
import { composeAnswer } from "./compose-answer";
import { jsonFromSchema } from "./json-from-schema";
import { readPrompt } from "./read-prompt";
import { seededRandom } from "./seeded-random";

const passage = (n: number, text: string, name = "notes.md"): TRunPassage => ({
  n,
  chunk_id: `c${n}`,
  document_id: "doc",
  document_name: name,
  page: n,
  section: null,
  text,
});

const PASSAGES = [
  passage(3, "Opening hours are nine to five on weekdays. Weekends are closed."),
  passage(4, "The bakery sells sourdough bread and rye rolls every morning of the week."),
];

describe("the simulator with document passages", () => {
  it("reads the passages block back out of the prompt, leaving the task as it was", () => {
    const content = agentContent("Write about our bakery", "Describe the bread", [], [], PASSAGES);
    const parts = readPrompt(content);
    expect(parts.task).toBe("Describe the bread");
    expect(parts.request).toBe("Write about our bakery");
    expect(parts.passages.map((p) => [p.n, p.source, p.text])).toEqual([
      [3, "notes.md — page 3", PASSAGES[0]?.text],
      [4, "notes.md — page 4", PASSAGES[1]?.text],
    ]);
  });

  it("quotes the passage that fits the task best and cites its number", () => {
    const content = agentContent(
      "Write about our bakery",
      "Describe the sourdough bread",
      [],
      [],
      PASSAGES,
    );
    const text = composeAnswer({
      persona: "strategist",
      prompt: readPrompt(content),
      depth: 1,
      seed: 7,
    });
    expect(citedNumbers(text)).toEqual([4]);
    expect(text).toContain(
      "“The bakery sells sourdough bread and rye rolls every morning of the week.” [4]",
    );
    // The same prompt, the same answer.
    expect(
      composeAnswer({ persona: "strategist", prompt: readPrompt(content), depth: 1, seed: 7 }),
    ).toBe(text);
  });

  it("keeps a citation in the synthesis and none in the Critic's review", () => {
    const drafts = [{ stepId: "s1", role: "strategist" as const, text: "Bread daily [4]." }];
    const final = composeAnswer({
      persona: "coordinator",
      prompt: readPrompt(
        synthesisContent("Write about our bakery", drafts, null, [PASSAGES[1] as TRunPassage]),
      ),
      depth: 1,
      seed: 1,
    });
    expect(citedNumbers(final)).toContain(4);
    const review = composeAnswer({
      persona: "critic",
      prompt: readPrompt(agentContent("Write about our bakery", "Review", drafts, [], PASSAGES)),
      depth: 1,
      seed: 1,
    });
    expect(review).not.toContain("From the documents");
  });

  it("names per plan step the documents whose names match, else all of them", () => {
    const documents = [
      { ref: "d1", id: "a", name: "solar-roof.md", pages: null },
      { ref: "d2", id: "b", name: "bread.txt", pages: 2 },
    ];
    const schema = {
      type: "object" as const,
      properties: {
        rationale: { type: "string" as const },
        steps: {
          type: "array" as const,
          items: {
            type: "object" as const,
            properties: { id: { type: "string" as const }, documents: { type: "array" as const } },
          },
        },
      },
    };
    const planFor = (request: string) => {
      const prompt = planContent(request, documents, []);
      const parts = readPrompt(prompt);
      expect(parts.request).toBe(request);
      return jsonFromSchema(schema, {
        request: parts.request,
        earlier: [],
        prompt,
        documents: parts.documents,
        random: seededRandom(1),
      }) as { steps: { role: string; documents: string[] }[] };
    };
    const solar = planFor("Plan solar panels for our roof");
    for (const step of solar.steps) {
      expect(step.documents).toEqual(step.role === "critic" ? [] : ["d1"]);
    }
    const unclear = planFor("Plan a product launch");
    for (const step of unclear.steps.filter((s) => s.role !== "critic")) {
      expect(step.documents).toEqual(["d1", "d2"]);
    }
  });

  it("quotes the passage's sentence, not the section title or heading lines it starts with", () => {
    expect(
      quotableSentence(
        "Repairs The plan budgets the breakwater repairs at 40,000 euros. More.",
        "Repairs",
      ),
    ).toBe("The plan budgets the breakwater repairs at 40,000 euros.");
    expect(quotableSentence("Harbour survey 2026\nThe wall needs new stones before winter.")).toBe(
      "The wall needs new stones before winter.",
    );
  });
});

describe("a heading inside a passage", () => {
  it("is not quoted as the start of the sentence after it", () => {
    const text = [
      "Books are lent for three weeks. A late book costs 0.20 per day.",
      "Films and music",
      "DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00. DVDs cannot be renewed.",
    ].join("\n\n");
    const question = "What is the fine for a DVD returned late at the library?";
    // The passage as a call's prompt carries it, read back as the simulator reads it.
    const { passages } = readPrompt(
      agentContent(question, "Answer it", [], [], [passage(1, text, "library-rules.txt")]),
    );
    const quote = bestQuote(passages, question);
    expect(quote?.sentence).toBe(
      "DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.",
    );
  });
});
