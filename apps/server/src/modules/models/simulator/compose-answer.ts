import { bestQuote, withCitation } from "./cite-passages";
import { mergeDrafts } from "./merge-drafts";
import type { PromptParts } from "./read-prompt";
import { reviseDraft } from "./revise-draft";
import { hashString, type Random, seededRandom } from "./seeded-random";
import {
  capitalise,
  isFactualQuestion,
  NO_SUBJECT,
  type SubjectKind,
  subjectOf,
  type Topic,
  topicOf,
} from "./subject";
import { RISKS } from "./subject-risks";
import { svgDataUrl } from "./svg-image";
import { codeFor } from "./write-code";
import { proseFor } from "./write-prose";
import { writeReview } from "./write-review";

/** Whose voice the simulator answers in. */
export type SimulatorPersona =
  | "strategist"
  | "coder"
  | "designer"
  | "critic"
  | "coordinator"
  | "chat"
  | "vision";

export interface AnswerRequest {
  persona: SimulatorPersona;
  /** The call's prompt, read back into its parts. */
  prompt: PromptParts;
  /** <1 for terse models, >1 for thorough ones. */
  depth: number;
  seed: number;
  /** The model answering: each takes its own angle, so re-running on another differs. */
  modelId?: string;
}

interface Answering {
  req: AnswerRequest;
  topic: Topic;
  random: Random;
}

function scaled(base: number, depth: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, Math.round(base * depth)));
}

/** Picks `count` items of `pool` but keeps them in the pool's order (steps stay logical). */
function orderedSample<T>(random: Random, pool: readonly T[], count: number): T[] {
  const chosen = new Set(
    random.sample(
      pool.map((_, i) => i),
      count,
    ),
  );
  return pool.filter((_, i) => chosen.has(i));
}

type Step = readonly [title: string, detail: string];

/** The Strategist's steps for each kind of work; {s} is the subject. */
const STEPS: Record<SubjectKind, { first: Step; middle: readonly Step[]; last: Step }> = {
  page: {
    first: [
      "Agree the page's one job",
      "Decide who {s} is for and the single action it should lead to.",
    ],
    middle: [
      [
        "List the content",
        "Collect every piece the page needs (headline, offer, proof, questions) before any layout.",
      ],
      [
        "Sketch the structure",
        "Order the sections by what a first-time visitor must know first; one primary action per screen.",
      ],
      [
        "Build the component",
        "Implement it from one data source, so copy and prices change in one place.",
      ],
      [
        "Check mobile and access",
        "Test at 375 px and with the keyboard only; fix contrast and focus order.",
      ],
      ["Instrument it", "Track views and the primary action, so the first change can be measured."],
    ],
    last: [
      "Launch and compare",
      "Ship it, watch the primary action for a week, then test one change at a time.",
    ],
  },
  code: {
    first: [
      "Pin down inputs and outputs",
      "Write three example inputs for {s} and the exact output each should give.",
    ],
    middle: [
      [
        "Choose the approach",
        "Pick the simplest design that handles the examples; note the one decision that is hard to undo.",
      ],
      [
        "Write the core with a test",
        "Make the main path work end to end, with a test that fails first.",
      ],
      [
        "Cover the edge cases",
        "Empty, invalid and very large input: decide and test what happens for each.",
      ],
      [
        "Handle failures clearly",
        "Every error says what went wrong and what to do; nothing fails silently.",
      ],
      ["Document how to run it", "One command to run, one to test, in a short README."],
    ],
    last: ["Ship and watch", "Release it to one real use first, watch the errors, then widen."],
  },
  data: {
    first: [
      "Name the entities",
      "List the things {s} stores and how they relate (one-to-many, many-to-many).",
    ],
    middle: [
      [
        "Choose keys and constraints",
        "Primary keys, foreign keys with delete rules, NOT NULL and CHECK constraints.",
      ],
      ["Write the key queries", "The three queries the app runs most, and the indexes they need."],
      ["Plan the migration", "Create tables in dependency order; make the migration re-runnable."],
      ["Load realistic data", "Seed a few thousand rows and check the query plans."],
    ],
    last: ["Back it up", "Set up backups and test one restore before real data arrives."],
  },
  visual: {
    first: [
      "Write the brief",
      "Who {s} speaks to, three words for its personality, and where it will appear.",
    ],
    middle: [
      ["Gather references", "Collect ten examples you like and note what each does well."],
      [
        "Explore three directions",
        "Sketch three distinct directions quickly, in black and white first.",
      ],
      ["Pick and refine one", "Choose with the brief in hand, then refine shape, colour and type."],
      [
        "Test it in use",
        "Check it small (favicon), large (banner), on light and dark backgrounds.",
      ],
    ],
    last: ["Deliver the assets", "Export SVG and PNG sizes with a one-page usage guide."],
  },
  writing: {
    first: [
      "Know the reader",
      "Who reads it, what they already know, and what they should do after reading it.",
    ],
    middle: [
      [
        "Pick one key message",
        "The single sentence a reader should remember; everything else supports it.",
      ],
      ["Structure it", "Hook first, then the message, proof, and one clear call to action."],
      ["Draft it quickly", "Write the whole draft in one go; fix it afterwards."],
      [
        "Cut it down",
        "Remove every sentence that does not serve the key message; aim for half the length.",
      ],
    ],
    last: [
      "Test before sending",
      "Send it to yourself and one colleague; fix what made either of you pause.",
    ],
  },
  plan: {
    first: [
      "Clarify the goal",
      "Say what {s} should achieve, by when, and how you will know it worked.",
    ],
    middle: [
      [
        "Map where you stand",
        "List what already exists, what is missing, and the constraints (time, money, people).",
      ],
      [
        "Compare the options",
        "Write down two or three ways to get there and pick one, with the reason.",
      ],
      ["Start with a small slice", "Do the smallest version end to end before scaling it up."],
      ["Check progress early", "Review after the first week against the goal and adjust."],
      ["Line up the people", "Name who decides, who does the work and who needs to be told."],
    ],
    last: [
      "Launch and review",
      "Go live, gather feedback for two weeks, and note what to change next time.",
    ],
  },
  question: {
    first: [
      "Start from the goal",
      "Be clear what a good outcome looks like for you, in one sentence.",
    ],
    middle: [
      [
        "Learn the basics first",
        "Spend an hour on the fundamentals before the details; they explain most problems.",
      ],
      ["Try the simplest thing", "Do the smallest practical step today and watch what happens."],
      [
        "Change one thing at a time",
        "When something goes wrong, change one variable so you know what helped.",
      ],
      ["Keep notes", "Write down what you tried and the result; patterns show within a week."],
    ],
    last: [
      "Ask for a second view",
      "Share what you tried with someone experienced and compare notes.",
    ],
  },
};

function fillSubject(text: string, subject: string): string {
  return text.replace(/\{s\}/g, subject);
}

/** Where each model starts a plan: seeded by the model, so two models' plans differ visibly. */
const ANGLES: readonly string[] = [
  "start from what the person using it sees first, and work back to what it needs",
  "start from the riskiest assumption and test it before anything else",
  "start from the information involved: what exists, who changes it, what must stay true",
  "start with the smallest version that works end to end, then widen it",
  "start from the constraints (time, money, people) and fit the scope to them",
];

/** The built-in models' angles, chosen apart; any other model's comes from its id. */
const ANGLE_OF_MODEL: Record<string, number> = {
  coreason: 1,
  codepth: 2,
  coquick: 3,
  cologic: 4,
  cochat: 0,
  "gpt-4.1": 0,
  "claude-sonnet-4": 2,
  "gemini-2.5-flash": 3,
};

function angleOf(modelId: string | undefined): string | null {
  if (!modelId) return null;
  return ANGLES[ANGLE_OF_MODEL[modelId] ?? hashString(modelId) % ANGLES.length] ?? null;
}

function strategist({ req, topic, random }: Answering): string {
  if (isFactual(topic)) {
    return [
      `## ${capitalise(topic.subject)}`,
      "",
      ...factualAnswer(topic, req.prompt, req.modelId),
    ].join("\n");
  }
  const plan = STEPS[topic.kind];
  const steps = [
    plan.first,
    ...orderedSample(random, plan.middle, scaled(3, req.depth, 2, 4)),
    plan.last,
  ];
  const risks = random.sample(RISKS[topic.kind], scaled(2, req.depth, 1, 3));
  const out = [
    `## ${capitalise(topic.subject)}`,
    "",
    `**Goal:** ${capitalise(topic.subject)}, done in small steps you can check.`,
  ];
  const angle = angleOf(req.modelId);
  if (angle) out.push("", `**Angle:** ${angle}.`);
  if (topic.followUp) out.push("", `Adjusted for your note: “${topic.followUp}”.`);
  out.push(
    "",
    ...steps.map(
      ([title, detail], i) => `${i + 1}. **${title}**: ${fillSubject(detail, topic.subject)}`,
    ),
  );
  out.push(
    "",
    "**Risks**",
    ...risks.map((r) => `- ${r}`),
    "",
    "**Done when**",
    "- The result is finished and checked against step 1.",
    "- Someone who was not involved can follow it without help.",
  );
  if (topic.kind === "writing") out.push("", "### Draft", "", proseFor(topic.subject, random));
  return out.join("\n");
}

/** The request the Coder writes code for: the user's, unless only the step's task names code. */
function codeRequest(req: AnswerRequest, topic: Topic): string {
  if (topic.kind === "code" || topic.kind === "page" || topic.kind === "data") return topic.request;
  return req.prompt.task ? `${req.prompt.task}\n${topic.request}` : topic.request;
}

/**
 * How each model writes code beyond the code itself (decision 065), so a step re-run on
 * another model reads differently: one lists the edge cases, one explains the trade-off it
 * made, one is terse.
 */
type CodeStyle = "edge-cases" | "trade-off" | "terse";

const CODE_STYLE_OF_MODEL: Record<string, CodeStyle> = {
  cologic: "edge-cases",
  coreason: "trade-off",
  codepth: "edge-cases",
  coquick: "terse",
};

const CODE_STYLES: readonly CodeStyle[] = ["edge-cases", "trade-off", "terse"];

function codeStyleOf(modelId: string | undefined): CodeStyle {
  if (!modelId) return "edge-cases";
  return CODE_STYLE_OF_MODEL[modelId] ?? (CODE_STYLES[hashString(modelId) % 3] as CodeStyle);
}

function coder({ req, topic }: Answering): string {
  const draft = codeFor(codeRequest(req, topic));
  const style = codeStyleOf(req.modelId);
  const approach =
    style === "terse"
      ? `Approach: ${draft.approach.replace(/:.*$/s, ".")}`
      : `Approach: ${draft.approach}`;
  const out = [approach, "", `\`\`\`${draft.fence}`, draft.code, "```", ""];
  if (draft.tests) out.push("**Tests**", "", `\`\`\`${draft.fence}`, draft.tests, "```", "");
  out.push(draft.run);
  if (style === "edge-cases") {
    out.push(
      "",
      "**Edge cases**",
      ...(draft.fence === "tsx" || draft.fence === "html"
        ? [
            "- Submitted empty: each field shows its error beside it, and nothing is sent.",
            "- An invalid value: the error says what is expected, and the input is kept.",
            "- A slow network: the button shows progress and cannot send twice.",
          ]
        : draft.fence === "sql"
          ? [
              "- A row that points at a missing parent: refused by its foreign key.",
              "- A value out of range: refused by a CHECK constraint, not by the app alone.",
            ]
          : [
              "- Empty input: returns an empty result rather than failing.",
              "- Malformed input: refused with an error that says what is wrong and where.",
              "- Very large input: processed piece by piece, so memory stays flat.",
            ]),
    );
  }
  if (style === "trade-off") {
    out.push(
      "",
      `**Trade-off**: the code favours being easy to read and to test over being as short as possible; for ${topic.subject} that is the part most likely to change.`,
    );
  }
  return out.join("\n");
}

/** The Designer's key decisions for the subject; the first is the one the others follow. */
function decisionsFor(topic: Topic): string[] {
  const s = topic.subject;
  if (topic.kind === "page" && /\bpric|\btiers?\b/i.test(s)) {
    return [
      "**Three tiers, middle one recommended**: the tiers sit side by side from 960 px and stack on phones with the recommended tier first.",
      "**Billing switch above the tiers**: monthly/yearly, with the yearly saving shown in words, not only as a price.",
      '**One call to action per tier**: verb-first labels ("Start free", "Choose Pro"), the recommended one filled, the others outlined.',
      "**Features as short, comparable lines**: the same order in every tier, so differences stand out.",
      "**Billing questions answered under the tiers**: a short FAQ on cancelling, refunds and invoices.",
    ];
  }
  if (topic.kind === "page" && /\b(?:landing|home ?page|homepage|website|site)\b/i.test(s)) {
    return [
      "**Hero states the value in one line**: a headline, one supporting sentence and one primary button above the fold.",
      "**Three benefits, not a feature list**: each with an icon, a four-word title and one sentence.",
      "**Social proof next to the action**: a short quote or a count near the signup, where doubt happens.",
      "**Signup asks for the email only**: everything else comes after the first success.",
    ];
  }
  if (
    topic.kind === "page" &&
    /\b(?:form|sign ?up|signup|log ?in|login|register|contact)\b/i.test(s)
  ) {
    return [
      "**Single column, labels above fields**: the fastest form layout to scan and to fill on a phone.",
      "**Validate on submit, then live**: errors appear beside their field in plain words, the input is kept.",
      "**One primary button**: it shows progress while sending and never submits twice.",
      "**Ask only what is needed now**: every optional field costs completions.",
    ];
  }
  if (topic.kind === "page" && /\b(?:dashboard|admin|analytics|stats|report)\b/i.test(s)) {
    return [
      '**Summary cards first**: three numbers that answer "is everything fine?" at a glance.',
      "**One table for the detail**: sortable columns, sticky header, filters as removable chips.",
      "**Every number has a comparison**: against last week or a target, never alone.",
      "**Empty and loading states designed**: skeleton rows while loading, a hint on what fills the empty table.",
    ];
  }
  if (topic.kind === "page") {
    return [
      `**One primary action**: ${s} leads to a single main action; everything else is secondary.`,
      "**Content in labelled sections**: headings that say what each part is for, in reading order.",
      "**Mobile first**: one column below 600 px, two from 960 px.",
      "**Feedback for every action**: saving, saved and failed states, announced to screen readers.",
    ];
  }
  if (topic.kind === "visual") {
    return [
      `**One simple idea**: ${s} rests on a single shape or symbol that still reads at 16 px.`,
      "**Mark and wordmark that work apart**: the symbol alone for icons, both together for headers.",
      "**Two colours and one neutral**: a primary, an accent and a dark neutral, all passing contrast on white.",
      "**One typeface family**: a sturdy sans-serif in two weights.",
    ];
  }
  if (topic.kind === "code" || topic.kind === "data") {
    return [
      `**Clear output first**: ${s} shows its result in plain words, with a summary line at the end.`,
      "**Errors say what to do next**: each message names the problem and the fix.",
      "**Sensible defaults**: it works with no options; flags only change what people actually vary.",
      "**Consistent naming**: the same term for the same thing in code, messages and docs.",
    ];
  }
  return [
    `**Scannable structure**: ${s} is laid out under short headings, with the key point first.`,
    "**One idea per section**: short paragraphs, lists for steps, a summary at the top.",
    "**A clear next step**: it ends with one obvious action for the reader.",
    "**Readable on any screen**: 16 px text, 60 to 75 characters per line.",
  ];
}

function designer({ req, topic, random }: Answering): string {
  const decisions = decisionsFor(topic).slice(0, scaled(4, req.depth, 3, 5));
  const palette = random.pick([
    "indigo 600 primary, slate greys, amber for warnings",
    "teal 600 primary, warm greys, rose for errors",
    "blue 600 primary, neutral greys, emerald for success",
  ]);
  return [
    `## Design spec: ${capitalise(topic.subject)}`,
    "",
    "### Key decisions",
    ...decisions.map((d) => `- ${d}`),
    "",
    "### Users and goal",
    `- The people ${topic.subject} is for want the main task done in under a minute, without reading help.`,
    "",
    "### Layout",
    "- A single column on mobile, two columns from 960 px.",
    "- Spacing on an 8 px grid: 24 px between sections, 16 px inside cards.",
    "",
    "### Components",
    '- **Primary button**: one per screen, verb-first label ("Get started", "Save changes").',
    "- **Inline messages**: hints below fields, errors beside the field they belong to.",
    "",
    "### States",
    `- Empty: one sentence on what ${topic.subject} is for and one button to start.`,
    "- Loading: skeletons in place of content; never a blank page.",
    "- Error: what went wrong in plain words and a Try again button; input is kept.",
    "",
    "### Visual style",
    `- Colour: ${palette}.`,
    "- Type: system UI font, 16 px body, 1.5 line height; headings 20/24/32 px.",
    "",
    "### Accessibility",
    "- Every control has a visible label; focus order follows reading order, with a visible focus ring.",
    "- Text contrast at least 4.5:1; status never shown by colour alone.",
  ].join("\n");
}

const ROLE_OF_PERSONA: Partial<Record<SimulatorPersona, string>> = {
  strategist: "Strategist",
  coder: "Coder",
  designer: "Designer",
};

/**
 * A revision: the role's first draft with the Critic's fixes for it made where the simulator
 * can make them, and what changed listed (revise-draft.ts, decision 065).
 */
function revised(answering: Answering, draft: string): string {
  const { req, topic } = answering;
  const stepId = req.prompt.revisedStepId;
  const fixes = (req.prompt.review ?? "")
    .split("\n")
    .filter((line) => /^\s*\d+[.)]\s/.test(line) && (!stepId || line.includes(`Draft ${stepId}`)))
    .map((line) =>
      line.replace(/^\s*\d+[.)]\s*/, "").replace(/^\*\*Draft \S+ \([^)]*\)\*\*:\s*/, ""),
    );
  const first = req.prompt.firstDraft ?? draft;
  if (fixes.length === 0) return first;
  return reviseDraft(first, fixes, { kind: topic.kind, subject: topic.subject }).text;
}

function critic({ req, topic, random }: Answering): string {
  const everything = [
    req.prompt.request,
    req.prompt.task ?? "",
    ...req.prompt.drafts.map((d) => d.text),
  ].join("\n");
  return writeReview({
    topic,
    drafts: req.prompt.drafts,
    prompt: everything,
    seed: req.seed,
    depth: req.depth,
    random,
  });
}

function coordinator({ req, topic, random }: Answering): string {
  return mergeDrafts({ topic, drafts: req.prompt.drafts, review: req.prompt.review, random });
}

const GREETING_ONLY =
  /^(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|greetings)\b[\s\S]{0,20}$/i;

const numbered = (steps: readonly Step[], subject: string) =>
  steps.map(([title, detail], i) => `${i + 1}. **${title}**: ${fillSubject(detail, subject)}`);

const WHY_STEPS: readonly Step[] = [
  ["Reproduce it reliably", "Find the smallest set of actions that makes it happen every time."],
  [
    "Check the usual causes first",
    "Most cases come from a recent change, a configuration difference or the environment.",
  ],
  ["Narrow it down", "Undo half of what differs, see if it still happens, and repeat."],
  [
    "Confirm the fix",
    "Once it stops, put the cause back once to prove it was the cause, then keep a test for it.",
  ],
];

/** "the difference between A and B", "A vs B", "compare A and B" → [A, B]. */
function comparedIn(subject: string): [string, string] | null {
  const match =
    /\bdifference(?:s)? between (.+?) and (.+)$/i.exec(subject) ??
    /^(?:compare\s+)?(.+?) (?:vs\.?|versus|or|compared to|compared with) (.+)$/i.exec(subject);
  return match?.[1] && match[2] ? [match[1], match[2]] : null;
}

/**
 * A question of fact or meaning ("What is the fine for a late DVD?"), not a how-to, a "why"
 * or a comparison: it is answered from the passages given, or said to be unanswerable here.
 */
function isFactual(topic: Topic): boolean {
  return isFactualQuestion(topic) && comparedIn(topic.subject) === null;
}

/**
 * The answer to a factual question: the sentence of the user's documents that answers it,
 * quoted and cited (decision 056); without documents, plainly that the simulator has no facts
 * of its own, and how to get a real answer.
 */
function factualAnswer(topic: Topic, prompt: PromptParts, modelId?: string): string[] {
  const quote = bestQuote(prompt.passages, prompt.request || topic.request);
  if (quote && quote.shared > 0) {
    const n = quote.passage.n;
    // Each model words its lead its own way; the quote and its citation are the same.
    const leads = [
      `**${quote.document}** answers it: “${quote.sentence}” [${n}]`,
      `According to **${quote.document}**: “${quote.sentence}” [${n}]`,
      `The rule is in **${quote.document}**: “${quote.sentence}” [${n}]`,
    ];
    const lead = modelId && modelId !== "coreason" ? (hashString(modelId) % 2) + 1 : 0;
    return [leads[lead] as string, "", `Open [${n}] to read it in its place in ${quote.document}.`];
  }
  if (prompt.passages.length > 0) {
    return [
      `None of the passages given says anything about ${topic.subject}, and this is Cohort's built-in simulator, not a real model, so it has no facts of its own to add.`,
      "",
      "- Attach the document that covers it and ask again, or pick a real model (a provider key in Settings, or a local model server such as Ollama).",
    ];
  }
  return [
    `I can't answer that from facts: this is Cohort's built-in simulator, not a real model, so it knows nothing about ${topic.subject} of its own.`,
    "",
    "- Attach the document that covers it and ask again: the answer will quote the passage that says it and cite it.",
    "- Or pick a real model: add a provider key in Settings, or run a local model server such as Ollama.",
  ];
}

function questionBody(topic: Topic, random: Random, depth: number): string[] {
  const s = topic.subject;
  const pair = comparedIn(s);
  if (pair) {
    const [a, b] = pair;
    return [
      `On ${s}, compare them on three things:`,
      "",
      "1. **What each is for**: the problem it was made to solve.",
      "2. **What it costs**: in speed, memory, money or effort to learn.",
      "3. **Where it breaks down**: the situation in which it is the wrong choice.",
      "",
      `Pick ${a} when its strengths match your main constraint; pick ${b} when that constraint is the one ${a} handles worst.`,
    ];
  }
  if (/^why\b/i.test(s)) {
    return [`On ${s}, work through it in this order:`, "", ...numbered(WHY_STEPS, s)];
  }
  const steps = orderedSample(random, STEPS.question.middle, scaled(3, depth, 2, 4));
  return [
    `${capitalise(s)}: start small, change one thing at a time, and keep notes.`,
    "",
    ...numbered([STEPS.question.first, ...steps], s),
  ];
}

function chatBody(topic: Topic, random: Random, depth: number, prompt: PromptParts): string[] {
  const s = topic.subject;
  if (isFactual(topic)) return factualAnswer(topic, prompt);
  if (topic.kind === "writing") {
    return [
      `Here is a first draft of ${s}:`,
      "",
      proseFor(s, random),
      "",
      "Tell me the tone you want and I will adjust it.",
    ];
  }
  if (topic.kind === "question") return questionBody(topic, random, depth);
  const plan = STEPS[topic.kind];
  const steps = orderedSample(random, plan.middle, scaled(2, depth, 2, 3));
  return [
    topic.kind === "plan"
      ? random.pick([`Here is a plan for ${s}:`, `Here is how I would go about ${s}:`])
      : random.pick([`Here is how I would approach ${s}:`, `Here is a way to build ${s}:`]),
    "",
    ...numbered([plan.first, ...steps], s),
  ];
}

const THANKS =
  /^(?:thanks|thank you|thx|cheers|great|perfect|ok(?:ay)?|cool|got it|nice)\b[\s\S]{0,20}$/i;
const SHORTER = /\b(?:shorter|brief|briefly|summari[sz]e|tl;?dr|simpler|in short)\b/i;

function chat({ req, topic, random }: Answering): string {
  const message = req.prompt.request.trim();
  if (message.length === 0) return "Hello! What would you like to talk about?";
  const fresh = topic.subject === NO_SUBJECT;
  if (GREETING_ONLY.test(message) && subjectOf(message) === "your request") {
    return fresh
      ? "Hello! I can help you plan, write, explain or code something. What are you working on?"
      : `Hello again! We were talking about ${topic.subject}. Shall we carry on from there, or start something new?`;
  }
  if (THANKS.test(message)) {
    return fresh
      ? "You're welcome! Is there anything else I can help with?"
      : `You're welcome! If anything about ${topic.subject} is still unclear, just ask. Shall we look at a next step?`;
  }
  const body = chatBody(topic, random, req.depth, req.prompt);
  if (isFactual(topic)) return body.join("\n");
  if (topic.followUp && SHORTER.test(topic.followUp)) {
    const steps = body.filter((line) => /^\d+\. /.test(line)).slice(0, 2);
    const short = steps.length > 0 ? steps : body.slice(2).join("\n").split(/\n\n/).slice(0, 2);
    return [`The short version on ${topic.subject}:`, "", ...short].join("\n");
  }
  const close = random.pick([
    `Would you like me to go deeper on any step for ${topic.subject}?`,
    "Does that match what you had in mind?",
    "Want a concrete example for your situation?",
  ]);
  const lead = topic.followUp
    ? [`Following up on ${topic.subject} (“${topic.followUp}”).`, ""]
    : [];
  return [...lead, ...body, "", close].join("\n");
}

function vision({ topic, random }: Answering): string {
  const title = capitalise(topic.subject);
  const url = svgDataUrl(title, random);
  return [
    `Here is an illustration of **${topic.subject}**.`,
    "",
    `![${title.replace(/[[\]]/g, "")}](${url})`,
    "",
    "_Vector illustration generated by CoVision._",
  ].join("\n");
}

const COMPOSERS: Record<SimulatorPersona, (answering: Answering) => string> = {
  strategist,
  coder,
  designer,
  critic,
  coordinator,
  chat,
  vision,
};

/** A deterministic answer in the persona's shape, about the user's request. */
export function composeAnswer(req: AnswerRequest): string {
  const answering: Answering = {
    req,
    topic: topicOf(req.prompt.request, req.prompt.earlier),
    random: seededRandom(req.seed),
  };
  const draft = COMPOSERS[req.persona](answering);
  const isRevision = req.prompt.firstDraft !== null && ROLE_OF_PERSONA[req.persona] !== undefined;
  const answer = isRevision ? revised(answering, draft) : draft;
  // Agents and the coordinator's synthesis cite what they were given; the Critic reviews. A
  // factual answer has quoted and cited its passage already.
  const cited =
    (isFactual(answering.topic) && (req.persona === "chat" || req.persona === "strategist")) ||
    /” \[\d+\]/.test(answer);
  return req.persona === "critic" || cited ? answer : withCitation(answer, req.prompt);
}
