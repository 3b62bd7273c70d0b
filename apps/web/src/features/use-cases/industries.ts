import type { INDUSTRIES, TAgentRole } from "@cohort/contracts";

export type TIndustry = (typeof INDUSTRIES)[number];

export interface IndustryContent {
  name: string;
  /** One line for the index card. */
  summary: string;
  title: string;
  lead: string;
  workflows: readonly { title: string; text: string }[];
  roles: Readonly<Record<TAgentRole, string>>;
  examplePrompt: string;
  /** What to keep in mind in regulated or high-stakes fields. */
  caution?: string;
}

/** Real copy for every industry slug in contracts; the type makes a missing one a compile error. */
export const INDUSTRY_CONTENT: Readonly<Record<TIndustry, IndustryContent>> = {
  software: {
    name: "Software",
    summary: "Design docs, migrations and incident reviews with a built-in second opinion.",
    title: "Ship technical decisions with a second opinion built in",
    lead: "Design docs, migrations, incident write-ups and code reviews all get better with more than one perspective. Cohort gives you a Strategist to frame the trade-offs, a Coder to write the change, a Designer to think about the people who use it and a Critic to check the whole thing before your reviewers do.",
    workflows: [
      {
        title: "Design docs and RFCs",
        text: "Draft an RFC with real alternatives considered, then have the Critic score it against your team's template before it goes out for review.",
      },
      {
        title: "Migration plans",
        text: "Break a schema, framework or infrastructure migration into safe, reversible steps, each with its own rollback note and test.",
      },
      {
        title: "Incident reviews",
        text: "Turn a timeline and log excerpts into a blameless write-up with causes, contributing factors and follow-ups that have owners.",
      },
    ],
    roles: {
      strategist: "Frames the problem, lists options and names the risks of each.",
      coder: "Writes the code, the tests and the migration scripts.",
      designer: "Reviews API ergonomics, error messages and the developer experience.",
      critic: "Checks correctness and edge cases, and whether the plan answers the brief.",
    },
    examplePrompt:
      "We need to move session storage from Redis to Postgres without downtime. Propose a plan, write the migration and the dual-write code, and list what could go wrong at each step.",
  },
  marketing: {
    name: "Marketing",
    summary: "Campaigns planned, written, laid out and critiqued in one run.",
    title: "Campaigns planned, written and critiqued in one run",
    lead: "A launch needs positioning, copy, structure and a hard look at every claim. Instead of bouncing a brief between tools, give it to a Cohort team once and get back a plan, the assets and a review.",
    workflows: [
      {
        title: "Launch briefs",
        text: "Go from a feature description to positioning, audience, key messages and a channel plan your team can argue with.",
      },
      {
        title: "Landing pages with variants",
        text: "Get page structure from the Designer and two or three copy variants from the Strategist, each scored by the Critic against your brand voice.",
      },
      {
        title: "Content calendars",
        text: "Plan a month of posts and emails around a launch, with the tracking parameters and templates already written.",
      },
    ],
    roles: {
      strategist: "Sets positioning, audience and the mix of channels.",
      coder: "Writes tracking plans, UTM schemes and HTML email templates.",
      designer: "Shapes page structure, visual hierarchy and the rhythm of the copy.",
      critic: "Flags off-brand wording and claims that need evidence.",
    },
    examplePrompt:
      "Plan the launch of usage-based pricing for our existing customers: an announcement email, in-app banner copy and a two-week social calendar. Keep the tone calm and specific.",
  },
  finance: {
    name: "Finance",
    summary: "Variance commentary, model checks and board memos with the reasoning shown.",
    title: "Financial analysis with the reasoning shown",
    lead: "Finance work has to be explainable. In Cohort the reasoning is on screen: the Strategist's framing, the Coder's calculations and the Critic's objections sit next to the final memo, so you can check every step.",
    workflows: [
      {
        title: "Variance commentary",
        text: "Paste budget-versus-actual figures and get commentary that separates timing differences from real changes, with the questions to ask each owner.",
      },
      {
        title: "Model reviews",
        text: "Describe or paste the logic of a forecast; the Coder re-implements it step by step and the Critic points out circular references and fragile assumptions.",
      },
      {
        title: "Board memo drafts",
        text: "Turn a quarter's numbers into a clear narrative, with the Designer structuring the memo and the Critic checking that every claim traces to a figure.",
      },
    ],
    roles: {
      strategist: "Frames the story behind the numbers and what decision it supports.",
      coder: "Recomputes figures, writes formulas and small scripts to check them.",
      designer: "Structures tables and memos so the key number is the first thing read.",
      critic: "Challenges assumptions and flags figures that don't reconcile.",
    },
    examplePrompt:
      "Here is our Q3 budget versus actuals by department. Explain the five largest variances, separate timing from run-rate changes, and draft the questions for each budget owner.",
    caution:
      "Cohort helps you draft and check analysis; it does not give investment, tax or accounting advice. Have a qualified professional review anything you rely on, and leave account numbers and personal data out of prompts unless your agreements allow them.",
  },
  healthcare: {
    name: "Healthcare",
    summary: "Patient materials, policies and research summaries for the people who run care.",
    title: "Clearer documents for the people who run care",
    lead: "Much of healthcare runs on documents: patient information, procedures, training material, grant applications. Cohort helps operations, education and research teams produce them faster, with a Critic checking clarity and consistency before anyone else reads them.",
    workflows: [
      {
        title: "Patient information leaflets",
        text: "Rewrite clinical guidance that your clinicians have approved into plain language at a set reading level, with a Critic checking nothing was lost.",
      },
      {
        title: "Policies and procedures",
        text: "Turn scattered notes into a consistent standard operating procedure with roles, steps and review dates.",
      },
      {
        title: "Research and grant summaries",
        text: "Summarise published papers you provide and structure a grant narrative around aims, methods and impact.",
      },
    ],
    roles: {
      strategist: "Organises the document around its reader and its purpose.",
      coder: "Builds checklists, data tables and structured templates.",
      designer: "Sets reading level, layout and accessibility for patients and staff.",
      critic: "Compares the output with the source material and flags anything changed or missing.",
    },
    examplePrompt:
      "Rewrite this approved discharge guidance for knee replacement patients at a sixth-grade reading level, keep every instruction, and add a one-page checklist for the first week at home.",
    caution:
      "Cohort is not a medical device and must not be used to diagnose or treat anyone. Don't enter protected health information unless your organisation has the agreements with the model providers that your regulations require.",
  },
  education: {
    name: "Education",
    summary: "Lesson plans, assessments and accessible materials built by a team.",
    title: "Course materials built by a team, not a single draft",
    lead: "A good lesson has clear outcomes, activities that reach them, a fair assessment and materials every student can use. Cohort gives each of those to a specialist and has the Critic check that they line up.",
    workflows: [
      {
        title: "Lesson and unit plans",
        text: "Start from learning outcomes and get a sequenced plan with activities, timings and differentiation for mixed-ability groups.",
      },
      {
        title: "Assessments and rubrics",
        text: "Write questions that actually test the outcomes, with marking rubrics and model answers at each grade boundary.",
      },
      {
        title: "Accessible materials",
        text: "Adapt readings to different reading levels, write image descriptions and restructure handouts for screen readers.",
      },
    ],
    roles: {
      strategist: "Maps outcomes to activities and sequences the unit.",
      coder: "Builds quizzes, data sets for exercises and small interactive examples.",
      designer: "Lays out handouts and slides for clarity and accessibility.",
      critic: "Checks that every assessment item measures a stated outcome.",
    },
    examplePrompt:
      "Design a two-week unit on linear functions for 14-year-olds: outcomes, lesson-by-lesson activities, a 30-minute assessment with a rubric, and an adapted reading for students below grade level.",
  },
  legal: {
    name: "Legal",
    summary: "Issue lists, clause comparisons and plain-language summaries, checked twice.",
    title: "First drafts and issue lists, checked twice",
    lead: "Legal work rewards care and punishes confident mistakes. Cohort produces first drafts, issue lists and summaries with a Critic whose only job is to find what the draft got wrong, so a lawyer starts from a better place.",
    workflows: [
      {
        title: "Contract issue spotting",
        text: "Run a contract against your playbook and get a list of deviations, each with the clause, the risk and a suggested redline.",
      },
      {
        title: "Clause comparisons",
        text: "Compare limitation-of-liability or data-protection clauses across several agreements in one table.",
      },
      {
        title: "Plain-language summaries",
        text: "Explain an agreement's obligations to a non-lawyer client, with the Critic checking the summary against the text.",
      },
    ],
    roles: {
      strategist: "Identifies the issues that matter for your client's position.",
      coder: "Extracts clauses into structured tables for comparison.",
      designer: "Organises summaries so obligations and dates stand out.",
      critic: "Tests each statement against the source text and flags overstatements.",
    },
    examplePrompt:
      "Review this SaaS agreement against our playbook (attached). List every deviation with the clause number, why it matters for us as the customer, and a proposed redline.",
    caution:
      "Cohort does not provide legal advice; its output is a starting point for review by a qualified lawyer. Keep privileged or confidential material out of prompts unless your provider agreements and professional rules allow it.",
  },
};
