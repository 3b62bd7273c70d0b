import { type Random, seededRandom } from "./seeded-random";
import { svgDataUrl } from "./svg-image";

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
  /** The user's latest message: what the answer is about. */
  request: string;
  /** Everything else in the prompt (system text, earlier turns, drafts to review). */
  context: string;
  /** <1 for terse models, >1 for thorough ones. */
  depth: number;
  seed: number;
}

const STOPWORDS = new Set(
  "about above after again against also because been before being below between both could does doing down during each from further have having here into itself just more most other over same should some such than that their them then there these they this those through under until very what when where which while will with would your yours please write make create build need want help give show using into only also".split(
    " ",
  ),
);

/** The request's first sentence, trimmed to a title-sized topic. */
export function topicOf(request: string): string {
  // Prompts put the user's request first and their own sections after a "---" line.
  const userPart = request.split(/\n\s*-{3,}\s*(?:\n|$)/)[0] ?? request;
  const flat = userPart.replace(/\s+/g, " ").trim();
  const sentence = (flat.split(/(?<=[.!?])\s/)[0] ?? flat).replace(/[.!?:;,]+$/, "");
  if (sentence.length === 0) return "your request";
  if (sentence.length <= 80) return sentence;
  return `${sentence.slice(0, 80).replace(/\s+\S*$/, "")}…`;
}

export function keywordsOf(text: string, count = 3): string[] {
  const words = text.toLowerCase().match(/[a-z][a-z0-9-]{3,}/g) ?? [];
  const unique = [...new Set(words.filter((w) => !STOPWORDS.has(w)))];
  const fallback = ["the core feature", "the main flow", "the details"];
  return [...unique.slice(0, count), ...fallback].slice(0, count);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
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

function fill(template: string, words: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => words[key] ?? key);
}

function strategist(req: AnswerRequest, random: Random): string {
  const topic = topicOf(req.request);
  const [k1, k2] = keywordsOf(req.request, 2) as [string, string];
  const words = { topic, k1, k2 };
  const middle = [
    [
      "Map the current state",
      "List what already exists around {k1}, what is missing, and the constraints: time, budget, technology.",
    ],
    [
      "Design the approach",
      "Sketch the main parts of {k1} and {k2}, how they connect, and the one decision that is hardest to undo.",
    ],
    [
      "Build the smallest useful slice",
      "Make the core path work end to end first, with {k1} handling one realistic case.",
    ],
    [
      "Validate early",
      "Try the slice with real inputs, measure what matters (speed, accuracy, cost) and fix the biggest gap.",
    ],
    [
      "Handle the edge cases",
      "Cover empty, invalid and very large inputs for {k2}, and decide what the user sees when something fails.",
    ],
    [
      "Polish and document",
      "Tidy the naming, write a short guide to {k1}, and record the follow-ups you chose not to do.",
    ],
  ] as const;
  const steps = [
    [
      "Clarify the scope",
      "Agree who the {k1} work is for, the must-haves versus nice-to-haves, and two or three acceptance criteria.",
    ],
    ...orderedSample(random, middle, scaled(3, req.depth, 2, 5)),
    ["Ship and watch", "Release to a small group first, watch errors and feedback, then widen."],
  ];
  const risks = random.sample(
    [
      "Scope creep: {k1} grows before the core works. Hold the line on the must-haves.",
      "Slow decisions about {k2}. Name one person who decides.",
      "Hidden dependencies on existing systems. Check them while mapping the current state.",
      "Performance surprises with real data volumes. Measure early, not at the end.",
      "Users misread what {k1} does. Test the wording with two or three people.",
    ],
    scaled(2, req.depth, 1, 3),
  );
  const done = random.sample(
    [
      "The core scenario works end to end.",
      "The acceptance criteria from step 1 are met and checked.",
      "Failures are handled and explained to the user.",
      "Someone new can run it from the guide.",
    ],
    2,
  );
  return fill(
    [
      `## Plan: ${capitalise(topic)}`,
      "",
      `**Goal:** ${capitalise(topic)}, delivered in small, verifiable steps.`,
      "",
      ...steps.map(([title, detail], i) => `${i + 1}. **${title}**: ${detail}`),
      "",
      "**Risks**",
      ...risks.map((r) => `- ${r}`),
      "",
      "**Done when**",
      ...done.map((d) => `- ${d}`),
    ].join("\n"),
    words,
  );
}

function identifier(keywords: string[]): string {
  const parts = keywords
    .filter((k) => !k.includes(" "))
    .slice(0, 2)
    .map((k) => k.replace(/[^a-z0-9]/g, ""));
  if (parts.length === 0) return "solveTask";
  return parts.map((p, i) => (i === 0 ? p : capitalise(p))).join("");
}

function coder(req: AnswerRequest, random: Random): string {
  const topic = topicOf(req.request);
  const name = identifier(keywordsOf(req.request, 2));
  const type = capitalise(name);
  const text = req.request.toLowerCase();
  const fence = "```";
  if (/\b(python|django|flask|pandas|fastapi)\b/.test(text)) {
    return [
      `Approach: a small, typed function for **${topic}** that validates its input and fails with a clear message.`,
      "",
      `${fence}python`,
      "from dataclasses import dataclass",
      "",
      "",
      "@dataclass(frozen=True)",
      `class ${type}Item:`,
      "    key: str",
      "    value: float",
      "",
      "",
      `def ${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}(items: list[${type}Item]) -> dict[str, float]:`,
      `    """Totals the values per key for: ${topic}."""`,
      "    totals: dict[str, float] = {}",
      "    for item in items:",
      "        if not item.key:",
      '            raise ValueError("every item needs a key")',
      "        totals[item.key] = totals.get(item.key, 0.0) + item.value",
      "    return totals",
      fence,
      "",
      "Run it with `python -m pytest` after adding a test that feeds two items with the same key.",
    ].join("\n");
  }
  if (/\b(sql|query|database|postgres|table|schema)\b/.test(text)) {
    return [
      `Approach: one table with the constraints the data needs, and an indexed query for **${topic}**.`,
      "",
      `${fence}sql`,
      `CREATE TABLE ${name.toLowerCase()}_entries (`,
      "  id          bigserial PRIMARY KEY,",
      "  owner_id    bigint      NOT NULL,",
      "  amount      numeric     NOT NULL CHECK (amount >= 0),",
      "  created_at  timestamptz NOT NULL DEFAULT now()",
      ");",
      `CREATE INDEX ${name.toLowerCase()}_entries_owner ON ${name.toLowerCase()}_entries (owner_id, created_at DESC);`,
      "",
      "SELECT owner_id, sum(amount) AS total, count(*) AS entries",
      `FROM ${name.toLowerCase()}_entries`,
      "WHERE created_at >= now() - interval '30 days'",
      "GROUP BY owner_id",
      "ORDER BY total DESC",
      "LIMIT 20;",
      fence,
      "",
      "Run it with `psql -f` against a scratch database and check the plan with `EXPLAIN ANALYZE`.",
    ].join("\n");
  }
  if (/\b(page|ui|component|form|button|landing|react|html|screen)\b/.test(text)) {
    return [
      `Approach: an accessible React component for **${topic}**, with its own state and no dependencies.`,
      "",
      `${fence}tsx`,
      'import { useState } from "react";',
      "",
      `export function ${type}() {`,
      '  const [email, setEmail] = useState("");',
      '  const [status, setStatus] = useState<"idle" | "sent" | "error">("idle");',
      "  return (",
      `    <section aria-labelledby="${name}-title">`,
      `      <h1 id="${name}-title">${topic.replace(/[<>{}]/g, "")}</h1>`,
      "      <form",
      "        onSubmit={(event) => {",
      "          event.preventDefault();",
      '          setStatus(email.includes("@") ? "sent" : "error");',
      "        }}",
      "      >",
      `        <label htmlFor="${name}-email">Email</label>`,
      `        <input id="${name}-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />`,
      '        <button type="submit">Get started</button>',
      "      </form>",
      '      <p role="status">{status === "sent" ? "Thanks! Check your inbox." : status === "error" ? "Enter a valid email." : ""}</p>',
      "    </section>",
      "  );",
      "}",
      fence,
      "",
      `Render \`<${type} />\` in a page and try it with and without a valid email.`,
    ].join("\n");
  }
  const variant = random.int(0, 1);
  const code =
    variant === 0
      ? [
          `export interface ${type}Item {`,
          "  id: string;",
          "  value: number;",
          "}",
          "",
          `/** Totals values per id for: ${topic}. */`,
          `export function ${name}(items: readonly ${type}Item[]): { total: number; byId: Map<string, number> } {`,
          "  const byId = new Map<string, number>();",
          "  let total = 0;",
          "  for (const item of items) {",
          '    if (!item.id) throw new Error("Each item needs an id");',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: this is generated source code
          "    if (!Number.isFinite(item.value)) throw new Error(`Item ${item.id} has no numeric value`);",
          "    byId.set(item.id, (byId.get(item.id) ?? 0) + item.value);",
          "    total += item.value;",
          "  }",
          "  return { total, byId };",
          "}",
        ]
      : [
          `/** Fetches JSON for: ${topic}, retrying transient failures with backoff. */`,
          `export async function ${name}(url: string, attempts = 3): Promise<unknown> {`,
          "  let lastError: unknown;",
          "  for (let attempt = 1; attempt <= attempts; attempt++) {",
          "    try {",
          "      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: this is generated source code
          "      if (!response.ok) throw new Error(`HTTP ${response.status}`);",
          "      return await response.json();",
          "    } catch (error) {",
          "      lastError = error;",
          "      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));",
          "    }",
          "  }",
          `  throw new Error(\`${name} failed after \${attempts} attempts: \${String(lastError)}\`);`,
          "}",
        ];
  const test =
    variant === 0
      ? [
          `test("${name} totals values per id", () => {`,
          `  const result = ${name}([{ id: "a", value: 2 }, { id: "a", value: 3 }, { id: "b", value: 1 }]);`,
          "  expect(result.total).toBe(6);",
          '  expect(result.byId.get("a")).toBe(5);',
          "});",
        ]
      : [
          `test("${name} gives up after the last attempt", async () => {`,
          `  await expect(${name}("http://127.0.0.1:9/none", 1)).rejects.toThrow("failed after 1 attempts");`,
          "});",
        ];
  return [
    `Approach: a small TypeScript module for **${topic}**, with input checks and one test.`,
    "",
    `${fence}ts`,
    ...code,
    fence,
    "",
    "And a test:",
    "",
    `${fence}ts`,
    'import { expect, test } from "vitest";',
    "",
    ...test,
    fence,
    "",
    "Run it with `npx vitest run`.",
  ].join("\n");
}

function designer(req: AnswerRequest, random: Random): string {
  const topic = topicOf(req.request);
  const [k1, k2] = keywordsOf(req.request, 2) as [string, string];
  const layout = random.sample(
    [
      `A single column on mobile, two columns from 960 px: ${k1} on the left, details on the right.`,
      "A sticky header with the page title and the primary action; content scrolls beneath it.",
      `A summary card row at the top (three key numbers about ${k2}), the working area below.`,
      "A side panel that slides in for secondary settings instead of a separate page.",
      "Generous whitespace: 24 px between sections, 16 px inside cards.",
    ],
    scaled(3, req.depth, 2, 5),
  );
  const components = random.sample(
    [
      `**${capitalise(k1)} list**: rows with a title, a one-line summary and a status chip; click opens details.`,
      '**Primary button**: one per screen, verb-first label ("Create", "Save changes").',
      `**Search and filter bar**: instant search over ${k2}, filters as removable chips.`,
      "**Inline form**: labels above fields, hints below, errors in red text beside the field.",
      "**Toast**: confirms saves and undoable deletions for five seconds.",
      "**Detail drawer**: full information and secondary actions without leaving the list.",
    ],
    scaled(3, req.depth, 2, 5),
  );
  const palette = random.pick([
    "indigo 600 primary, slate greys, amber for warnings",
    "teal 600 primary, warm greys, rose for errors",
    "blue 600 primary, neutral greys, emerald for success",
  ]);
  return [
    `## Design spec: ${capitalise(topic)}`,
    "",
    "### Users and goal",
    `- People who come for the ${k1}; they want the main task done in under a minute, without reading help.`,
    "",
    "### Layout",
    ...layout.map((l) => `- ${l}`),
    "",
    "### Components",
    ...components.map((c) => `- ${c}`),
    "",
    "### States",
    `- Empty: a short sentence on what ${k1} is for and one button to start.`,
    "- Loading: skeleton rows in place of content; never a blank page.",
    "- Error: what went wrong in plain words and a Try again button; input is kept.",
    "",
    "### Visual style",
    `- Colour: ${palette}.`,
    "- Type: system UI font, 16 px body, 1.5 line height; headings 20/24/32 px.",
    "- Spacing on an 8 px grid; corners 8 px; one shadow level for raised surfaces.",
    "",
    "### Accessibility",
    "- Every control has a visible label; focus order follows reading order, with a visible focus ring.",
    "- Text contrast at least 4.5:1; status never shown by colour alone.",
    "- Live regions announce saves and errors to screen readers.",
  ].join("\n");
}

const REVISION = /\b(revised|revision|second draft|updated draft)\b/i;

/** The critic's score; exported so tests and the simulator agree on the rule. */
export function criticScore(seed: number, prompt: string): number {
  const base = 5 + (seed % 4);
  return REVISION.test(prompt) ? Math.min(9, base + 2) : base;
}

function critic(req: AnswerRequest, random: Random): string {
  const [k1, k2] = keywordsOf(`${req.request} ${req.context}`, 2) as [string, string];
  const score = criticScore(req.seed, `${req.request}\n${req.context}`);
  const strengths = random.sample(
    [
      `The structure is clear and follows the request about ${k1}.`,
      "Steps are concrete and in a sensible order.",
      "Error cases are considered, not just the happy path.",
      "The wording is plain and easy to act on.",
    ],
    2,
  );
  const issues = random.sample(
    [
      [
        `Acceptance criteria for ${k1} are vague`,
        "state two measurable checks, e.g. a time or a count.",
      ],
      [`${capitalise(k2)} edge cases are missing`, "cover empty and oversized input explicitly."],
      ["No test shows the main path works", "add one test for the core scenario."],
      ["Naming is inconsistent between drafts", "pick one term per concept and use it everywhere."],
      ["Accessibility is only implied", "name the labels, focus order and contrast targets."],
    ],
    scaled(score >= 7 ? 2 : 3, req.depth, 1, 4),
  );
  return [
    "## Review",
    "",
    "**Strengths**",
    ...strengths.map((s) => `- ${s}`),
    "",
    "**Issues and fixes**",
    ...issues.map(([issue, fix], i) => `${i + 1}. **${issue}**: ${fix}`),
    "",
    `Score: ${score}/10`,
    `Verdict: ${score >= 7 ? "approve" : "revise"}`,
  ].join("\n");
}

function coordinator(req: AnswerRequest, random: Random): string {
  const topic = topicOf(req.request);
  const headings = [...req.context.matchAll(/^#{2,3} (.+)$/gm)]
    .map((m) => (m[1] ?? "").trim())
    .filter((h, i, all) => h.length > 0 && all.indexOf(h) === i)
    .slice(0, 5);
  const highlights =
    headings.length > 0
      ? headings.map((h) => `- ${h}: covered, see the agents' notes above.`)
      : [
          "- The approach is broken into small, testable steps.",
          "- The main risks are named, each with a mitigation.",
        ];
  const next = random.sample(
    [
      "Confirm the acceptance criteria with whoever asked for this.",
      "Build the smallest slice and try it with real input.",
      "Fix the issues the review raised, starting with the first.",
      "Share the result with two users and collect feedback.",
    ],
    scaled(2, req.depth, 2, 3),
  );
  return [
    "## Summary",
    "",
    `${capitalise(topic)}: here is the combined result of the team's work.`,
    "",
    "### Highlights",
    ...highlights,
    "",
    "### Next steps",
    ...next.map((n, i) => `${i + 1}. ${n}`),
  ].join("\n");
}

function chat(req: AnswerRequest, random: Random): string {
  const [k1] = keywordsOf(req.request, 1) as [string];
  if (req.request.trim().length === 0) return "Hello! What would you like to talk about?";
  const opening = random.pick([
    `Good question. Here is how I would approach the ${k1} part of it.`,
    `Happy to help with that. Let's look at ${k1} step by step.`,
    `Sure. A short answer first, then the detail on ${k1}.`,
  ]);
  const body = random.sample(
    [
      `Start from what you want ${k1} to achieve, then work backwards to the smallest thing you can try today.`,
      "The usual trap is doing everything at once; one change at a time makes it clear what helped.",
      "If you have numbers, use them: a rough measurement beats a confident guess.",
      "It is worth writing the decision down in a sentence or two, so you can revisit it later.",
    ],
    scaled(2, req.depth, 1, 3),
  );
  const close = random.pick([
    "Would you like me to go deeper on any part?",
    "Does that match what you had in mind?",
    "Want an example to make it concrete?",
  ]);
  return [opening, "", body.join(" "), "", close].join("\n");
}

function vision(req: AnswerRequest, random: Random): string {
  const topic = topicOf(req.request);
  const url = svgDataUrl(topic, random);
  return [
    `Here is an illustration of **${topic}**.`,
    "",
    `![${topic.replace(/[[\]]/g, "")}](${url})`,
    "",
    "_Vector illustration generated by CoVision._",
  ].join("\n");
}

const COMPOSERS: Record<SimulatorPersona, (req: AnswerRequest, random: Random) => string> = {
  strategist,
  coder,
  designer,
  critic,
  coordinator,
  chat,
  vision,
};

/** A deterministic answer in the persona's shape, about the request. */
export function composeAnswer(req: AnswerRequest): string {
  return COMPOSERS[req.persona](req, seededRandom(req.seed));
}
