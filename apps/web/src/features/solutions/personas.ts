import type { PERSONAS } from "@cohort/contracts";

export type TPersona = (typeof PERSONAS)[number];

export interface PersonaContent {
  name: string;
  summary: string;
  title: string;
  lead: string;
  pains: readonly { title: string; text: string }[];
  gains: readonly string[];
  examplePrompt: string;
  planHint: string;
}

export const PERSONA_CONTENT: Readonly<Record<TPersona, PersonaContent>> = {
  developers: {
    name: "Developers",
    summary: "A planner, a reviewer and a second model on every change.",
    title: "A pair programmer, a reviewer and a planner in one session",
    lead: "You already ask AI for code. Cohort adds the parts that usually come later — a plan before the code, a design review of the interface, and a Critic on a different model that reads the diff like a senior colleague.",
    pains: [
      {
        title: "One model reviewing its own code",
        text: "A model tends to approve what it just wrote. Cohort lets the Critic run on a different model family than the Coder.",
      },
      {
        title: "Copying answers between tools",
        text: "Planning in one chat and coding in another loses context. In Cohort every agent works from the same session.",
      },
      {
        title: "Invisible cost",
        text: "Long coding sessions add up. Cohort shows each agent's credits live, and calls on your own key cost none.",
      },
    ],
    gains: [
      "Pick the model per role — for example GPT for the Coder and Claude for the Critic.",
      "Use your own OpenAI, Anthropic or Google key for heavy work.",
      "Use the same API the web app uses, documented in OpenAPI.",
      "Reconnect to a running session from any device without losing a token.",
    ],
    examplePrompt:
      "Add rate limiting to our Express API: propose an approach (per-user and per-IP), implement it with tests, and review the error responses a client will see.",
    planHint: "Starter covers everyday use; bring your own keys for long sessions.",
  },
  "product-managers": {
    name: "Product managers",
    summary: "Specs, launch plans and trade-off memos that have already been challenged.",
    title: "Specs and launch plans that have already been argued with",
    lead: "A good spec survives contact with engineering, design and the customer. Cohort gives your draft to a Strategist, a Coder, a Designer and a Critic at once, so the hard questions arrive before the review meeting.",
    pains: [
      {
        title: "Blind spots in a first draft",
        text: "The Critic scores every draft against your brief and names the gaps — missing edge cases, unclear success metrics, hidden dependencies.",
      },
      {
        title: "Engineering questions late",
        text: "The Coder sketches the technical approach and flags the parts that are expensive to build.",
      },
      {
        title: "Walls of text",
        text: "The Designer structures the document and sketches the user flow so stakeholders can skim it.",
      },
    ],
    gains: [
      "A written plan of who works on what, visible before the run starts.",
      "One synthesised document instead of four separate answers.",
      "Sessions saved and shareable with your team on Pro+ and Enterprise.",
      "Exportable conversations for your spec archive.",
    ],
    examplePrompt:
      "Write a one-page spec for letting customers pause their subscription: problem, users, success metrics, scope, open questions, and a rough engineering estimate.",
    planHint: "Pro+ adds workspace saving and memory, so context follows you between specs.",
  },
  designers: {
    name: "Designers",
    summary: "Flows, copy and critique, with the code perspective in the room.",
    title: "Design critique on demand, with engineering in the room",
    lead: "Cohort's Designer role reasons about flows, hierarchy, accessibility and wording, while the Coder checks what is cheap or costly to build and the Critic reviews the whole proposal against your brief.",
    pains: [
      {
        title: "Waiting for critique",
        text: "Get structured feedback on a flow or a page description any time, before the team review.",
      },
      {
        title: "Copy as an afterthought",
        text: "The Designer drafts interface copy and error messages in context, alongside the layout.",
      },
      {
        title: "Feasibility surprises",
        text: "The Coder points out which parts of a design need new components or heavy work.",
      },
    ],
    gains: [
      "Accessibility checks on contrast, focus order and wording as part of every review.",
      "Alternative flows compared side by side with their trade-offs.",
      "CoVision, the native image model, for visual exploration.",
      "One answer you can hand to engineering.",
    ],
    examplePrompt:
      "Review this onboarding flow (steps below) for a budgeting app: where will people drop off, how should the copy change, and what would it cost to build each improvement?",
    planHint: "Starter is enough to start; Pro adds all models and the fast queue.",
  },
  researchers: {
    name: "Researchers",
    summary: "Literature synthesis and methods reviews with the reasoning visible.",
    title: "Synthesis you can audit, step by step",
    lead: "Research needs more than a fluent summary: it needs the reasoning. In Cohort the Strategist's framing, the Coder's analysis and the Critic's objections are all on screen, so you can follow and challenge every step.",
    pains: [
      {
        title: "Confident but shallow summaries",
        text: "The Critic checks each claim against the sources you provided and flags anything it can't trace.",
      },
      {
        title: "Analysis you can't reproduce",
        text: "The Coder writes the analysis as code you can run yourself.",
      },
      {
        title: "One model's perspective",
        text: "Put different model families in different roles and see where they disagree.",
      },
    ],
    gains: [
      "CoDepth for deep analysis and CoReason for careful logical reasoning.",
      "Long-context models for large sets of papers.",
      "Stored run events, so you can show exactly how a conclusion was reached.",
      "Export of the full conversation for your notes.",
    ],
    examplePrompt:
      "Using the five abstracts below, summarise what is known about remote work and junior developer productivity, note where the studies disagree, and propose a study design to settle it.",
    planHint: "Pro includes all models; memory on Pro+ keeps a project's context between sessions.",
  },
  founders: {
    name: "Founders",
    summary: "A small team's worth of perspectives on every decision, with a visible budget.",
    title: "The team you haven't hired yet, on a budget you can see",
    lead: "Early on you are the strategist, the engineer, the designer and the critic. Cohort gives you each of those perspectives on every decision — pricing, product, hiring plans — and shows exactly what it cost.",
    pains: [
      {
        title: "No one to push back",
        text: "The Critic's job is to find the weak spots in your plan before investors or customers do.",
      },
      {
        title: "Context switching",
        text: "Go from strategy to a technical sketch to landing page copy in one session.",
      },
      {
        title: "Unpredictable AI spend",
        text: "Credits are reserved before each call and settled on real usage; your balance never goes negative.",
      },
    ],
    gains: [
      "Live cost per agent and warnings at 20 and 5 credits.",
      "Bring your own keys to use credits you already pay providers for.",
      "A Starter plan for light use, and credit packages when a week gets busy.",
      "Team workspaces on Enterprise when you do hire.",
    ],
    examplePrompt:
      "We sell scheduling software to dental clinics at $49 per seat. Should we move to per-location pricing? Model the revenue impact for our 120 customers and draft the customer email.",
    planHint: "Start on Starter; upgrade when Pro opens and you need CoChat and the fast queue.",
  },
};
