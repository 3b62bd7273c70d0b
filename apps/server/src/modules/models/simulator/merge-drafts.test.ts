import type { TAgentRole } from "@cohort/contracts";
import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { type DraftText, SYNTHESIS_SYSTEM, synthesisContent } from "../../orchestration/prompts";
import { composeAnswer } from "./compose-answer";
import { readPrompt } from "./read-prompt";
import { hashString } from "./seeded-random";
import { createSimulatedModel } from "./simulated-model";

/**
 * Synthesis merges the drafts it is given, word for word: hand-written drafts (as a real model
 * might write them) go in through the engine's own synthesis prompt, and the final answer
 * must quote their code, decisions, steps and the Critic's fixes.
 */
interface Case {
  request: string;
  subject: string;
  code?: { fence: string; body: string };
  steps?: string[];
  decisions?: string[];
  fixes?: string[];
}

const CASES: Case[] = [
  {
    request: "Build a pricing page for a SaaS app",
    subject: "A pricing page for a SaaS app",
    code: {
      fence: "tsx",
      body: "export function Pricing() {\n  return <h1>Plans from $9</h1>;\n}",
    },
    steps: ["1. **List the tiers**: Free, Team, Scale.", "2. **Write the FAQ**: cancel any time."],
    decisions: ["- **Annual toggle on top**: saving shown as 2 months free."],
    fixes: ["the Team tier has no limit listed. Fix: add the seat limit under its price."],
  },
  {
    request: "Write a Python script that dedupes CSV rows",
    subject: "A Python script that dedupes CSV rows",
    code: { fence: "python", body: "def dedupe(rows):\n    return list(dict.fromkeys(rows))" },
    steps: ["1. Read the file with csv.reader.", "2. Keep the first of each row."],
    fixes: ["`dedupe` loads the whole file. Fix: stream rows with a generator."],
  },
  {
    request: "Can you help me design a logo for my bakery?",
    subject: "A logo for your bakery",
    decisions: [
      "- **A wheat-ear mark**: it reads at favicon size.",
      "- **Warm brown and cream**: the colours of crust and flour.",
    ],
    fixes: ["the wordmark is not specified. Fix: pick one serif and show it beside the mark."],
  },
  {
    request: "How do I keep sourdough starter alive?",
    subject: "How to keep sourdough starter alive",
    steps: [
      "1. Feed it equal weights of flour and water daily.",
      "2. Keep it at 24 °C.",
      "3. Discard half before each feed.",
    ],
    fixes: ["step 2 gives no fridge option. Fix: add weekly feeding when kept cold."],
  },
  {
    request: "Plan the database schema for recipes, users and ratings",
    subject: "The database schema for recipes, users and ratings",
    code: {
      fence: "sql",
      body: "CREATE TABLE ratings (\n  user_id bigint,\n  recipe_id bigint,\n  PRIMARY KEY (user_id, recipe_id)\n);",
    },
    steps: ["1. **Entities**: users, recipes, ratings."],
    fixes: ["ratings allow any number. Fix: CHECK (score BETWEEN 1 AND 5)."],
  },
  {
    request: "Build a small REST API for a task list with tests",
    subject: "A small REST API for a task list with tests",
    code: { fence: "ts", body: 'app.get("/tasks", (_req, res) => res.json([...tasks.values()]));' },
    steps: ["1. Define the Task type.", "2. Add the four routes.", "3. Write one test per route."],
    fixes: ["POST accepts an empty title. Fix: answer 400 with a message."],
  },
  {
    request: "Build a landing page for a recipe sharing app with a signup form",
    subject: "A landing page for a recipe sharing app with a signup form",
    code: { fence: "html", body: '<form action="/signup"><input type="email" required></form>' },
    decisions: [
      "- **Hero photo of a shared dinner**: food sells the idea.",
      "* **Email-only signup**",
    ],
    fixes: ["the hero has no alt text. Fix: describe the photo in one sentence."],
  },
  {
    request: "Write a Rust function to parse ISO dates",
    subject: "A Rust function to parse ISO dates",
    code: {
      fence: "rust",
      body: "pub fn parse(s: &str) -> Option<(u16, u8, u8)> {\n    let mut it = s.split('-');\n    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?, it.next()?.parse().ok()?))\n}",
    },
    fixes: ["`parse` accepts month 13. Fix: check 1..=12 and the day against the month."],
  },
  {
    request: "Create a settings screen for notification preferences",
    subject: "A settings screen for notification preferences",
    code: { fence: "tsx", body: '<Switch label="Email digests" checked={digest} />' },
    decisions: ["- **Group by channel**: email, push, SMS."],
    steps: ["1. Inventory every notification the app sends."],
  },
  {
    request: "Outline a go-to-market plan for a B2B analytics tool",
    subject: "A go-to-market plan for a B2B analytics tool",
    steps: [
      "1. **Pick the first segment**: mid-size e-commerce teams.",
      "2. **Pricing pilot**: ten design partners at half price.",
      "3. **Channel**: founder-led sales plus one webinar a month.",
    ],
    fixes: ["no budget is given. Fix: cap paid acquisition at 20% of the first-year target."],
  },
  {
    request: "Écris une fonction Python qui supprime les doublons d'une liste",
    subject: "Écris une fonction Python qui supprime les doublons d'une liste",
    code: { fence: "python", body: "def sans_doublons(xs):\n    return list(dict.fromkeys(xs))" },
    fixes: ["`sans_doublons` has no docstring. Fix: add one in French."],
  },
];

function draftsOf(c: Case): DraftText[] {
  const drafts: DraftText[] = [];
  const add = (role: TAgentRole, text: string) =>
    drafts.push({ stepId: `s${drafts.length + 1}`, role, text });
  if (c.steps)
    add(
      "strategist",
      `## Plan\n\nGoal: get it done.\n\n${c.steps.join("\n")}\n\n**Risks**\n- Time.`,
    );
  if (c.code) {
    add(
      "coder",
      `Approach: keep it small.\n\n\`\`\`${c.code.fence}\n${c.code.body}\n\`\`\`\n\nRun it with the usual command.`,
    );
  }
  if (c.decisions) {
    add(
      "designer",
      `## Design spec\n\n### Key decisions\n${c.decisions.join("\n")}\n\n### Layout\n- LAYOUT DETAIL NOT A DECISION`,
    );
  }
  return drafts;
}

function reviewOf(c: Case, drafts: DraftText[]): string | null {
  if (!c.fixes) return null;
  return [
    ...drafts.map((d) => `Draft ${d.stepId}: 6/10`),
    "",
    "**Issues and fixes**",
    ...c.fixes.map((fix, i) => `${i + 1}. **Draft ${drafts[0]?.stepId} (Coder)**: ${fix}`),
    "",
    "Score: 6/10",
    "Verdict: revise",
  ].join("\n");
}

function synthesise(c: Case): string {
  const drafts = draftsOf(c);
  const content = synthesisContent(c.request, drafts, reviewOf(c, drafts));
  return composeAnswer({
    persona: "coordinator",
    prompt: readPrompt(content),
    depth: 1,
    seed: hashString(content),
  });
}

describe("synthesis merges the drafts in its prompt", () => {
  it.each(CASES)("$request", (c) => {
    const answer = synthesise(c);
    expect(answer.split("\n")[0]).toBe("## Summary");
    expect(answer).toContain(`${c.subject}:`);
    if (c.code) expect(answer).toContain(`\`\`\`${c.code.fence}\n${c.code.body}\n\`\`\``);
    for (const step of c.steps ?? []) expect(answer).toContain(step);
    for (const decision of c.decisions ?? []) expect(answer).toContain(decision);
    expect(answer).not.toContain("LAYOUT DETAIL NOT A DECISION");
    for (const fix of c.fixes ?? []) expect(answer).toContain(fix);
    // Nothing of the engine's prompt leaks into the answer.
    expect(answer).not.toMatch(/---|The team's drafts|### Draft s\d/);
    expect(synthesise(c)).toBe(answer);
  });

  it("quotes the gist of a draft it has no section for, and takes any list as decisions", () => {
    const drafts: DraftText[] = [
      {
        stepId: "a",
        role: "designer",
        text: "Use a calm palette.\n\n- Sage green primary\n- Off-white background",
      },
      { stepId: "b", role: "strategist", text: "Talk to five customers before building anything." },
    ];
    const content = synthesisContent("Design a meditation app", drafts, null);
    const answer = composeAnswer({
      persona: "coordinator",
      prompt: readPrompt(content),
      depth: 1,
      seed: 1,
    });
    expect(answer).toContain("- Sage green primary\n- Off-white background");
    expect(answer).toContain("Talk to five customers before building anything.");
  });

  it("is recognised as the synthesis call from the engine's system prompt", async () => {
    const [c] = CASES as [Case];
    const drafts = draftsOf(c);
    const result = streamText({
      model: createSimulatedModel("coreason", { tokensPerSecond: 0 }),
      system: SYNTHESIS_SYSTEM,
      prompt: synthesisContent(c.request, drafts, reviewOf(c, drafts)),
    });
    const text = await result.text;
    expect(text).toMatch(/^## Summary\n/);
    expect(text).toContain(c.code?.body as string);
    expect(text).toContain(c.fixes?.[0] as string);
  });
});
