import type { COMPARED_MODELS } from "@cohort/contracts";

export type TComparedModel = (typeof COMPARED_MODELS)[number];

export interface CompareContent {
  /** The model family as people say it. */
  name: string;
  vendor: string;
  lead: string;
  /** Where this model tends to shine inside a Cohort team. */
  seat: string;
  aloneIsEnough: readonly string[];
  cohortHelps: readonly string[];
}

export const COMPARE_CONTENT: Readonly<Record<TComparedModel, CompareContent>> = {
  gpt: {
    name: "GPT",
    vendor: "OpenAI",
    lead: "GPT is an excellent model, and Cohort uses it. The real question is whether one model in one chat window is the right shape for your task — or whether the task wants a plan, several specialists and a reviewer.",
    seat: "Many teams put GPT in the Coder seat, where its code generation and tool-style reasoning pay off, and let another model plan or critique so its blind spots are checked by a different family.",
    aloneIsEnough: [
      "Quick questions and one-off rewrites where a single answer is all you need.",
      "Workflows built around features that only OpenAI's own apps offer.",
      "Tasks where you already know the exact prompt that works.",
    ],
    cohortHelps: [
      "Tasks with several parts — plan, build, design, review — that benefit from specialists.",
      "Work where a second model family should check the first one's output.",
      "Teams that need to see and cap what each step costs.",
    ],
  },
  claude: {
    name: "Claude",
    vendor: "Anthropic",
    lead: "Claude writes and reads long material carefully, and Cohort uses it. Alone, though, it is still one perspective grading its own work. Cohort adds a plan, other specialists and a Critic that can run on a different model.",
    seat: "Claude is a strong Strategist and Critic: it handles long briefs and source documents well and gives careful, well-structured feedback. Pair it with another family in the Coder seat for contrast.",
    aloneIsEnough: [
      "Long single-document work — summarising, editing — where one careful pass is enough.",
      "Workflows built around features that only Anthropic's own apps offer.",
      "Conversations where you want one consistent voice throughout.",
    ],
    cohortHelps: [
      "Work that mixes writing with code, structure or design decisions.",
      "Reviews where you want a different model to check Claude's reasoning.",
      "Runs where cost per step has to be visible and bounded.",
    ],
  },
  gemini: {
    name: "Gemini",
    vendor: "Google",
    lead: "Gemini brings very long context and strong multimodal understanding, and Cohort uses it. On its own it still plans, drafts and reviews in one pass. Cohort splits that work across roles and models and shows you each step.",
    seat: "Gemini's long context suits research-heavy Strategist work across many sources, and its multimodal strengths help the Designer reason about layouts and visuals.",
    aloneIsEnough: [
      "Questions over one very large document or set of files.",
      "Workflows that live inside Google's own apps and workspace tools.",
      "Quick multimodal questions about a single image.",
    ],
    cohortHelps: [
      "Tasks that need a plan and several kinds of expertise in one answer.",
      "Work where a Critic on a different model should score the result.",
      "Teams that want per-agent cost and hard budgets.",
    ],
  },
};

/** Rows of the comparison table; the second column is the same for every model. */
export function comparisonRows(content: CompareContent): readonly [string, string, string][] {
  return [
    [
      "Models on a task",
      `One: ${content.name}`,
      `Several, one per role — ${content.name} included`,
    ],
    ["Planning", "Implicit in your prompt", "A written plan from the coordinator, shown first"],
    [
      "Review",
      "You review the answer yourself",
      "A Critic scores each draft; one bounded revision",
    ],
    ["Cost visibility", "On your bill afterwards", "Live, per agent, in credits, during the run"],
    [
      "Budget control",
      "Account-level usage limits",
      "Each call reserves its worst case; no overdraft",
    ],
    ["Your own API key", `Yes, with ${content.vendor}`, "Yes — calls on your key cost no credits"],
    ["History", "A chat transcript", "Stored run events you can replay and export"],
  ];
}
