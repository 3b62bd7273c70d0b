import { estimateTokens, ZRunPlan } from "@cohort/contracts";
import { Output, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createSimulatedModel } from "./simulated-model";
import { criticScore } from "./write-review";

const fast = createSimulatedModel("coreason", { tokensPerSecond: 0 });

async function run(options: {
  prompt: string;
  system?: string;
  persona?: string;
  model?: ReturnType<typeof createSimulatedModel>;
  abortSignal?: AbortSignal;
  maxOutputTokens?: number;
}) {
  const result = streamText({
    model: options.model ?? fast,
    prompt: options.prompt,
    ...(options.system ? { system: options.system } : {}),
    ...(options.persona ? { providerOptions: { simulator: { persona: options.persona } } } : {}),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
    onError: () => {},
  });
  let text = "";
  const deltas: string[] = [];
  const parts: string[] = [];
  let usage: { inputTokens?: number; outputTokens?: number } = {};
  let finishReason = "";
  for await (const part of result.fullStream) {
    parts.push(part.type);
    if (part.type === "text-delta") {
      text += part.text;
      deltas.push(part.text);
    }
    if (part.type === "finish") {
      usage = part.totalUsage;
      finishReason = part.finishReason;
    }
  }
  return { text, deltas, parts, usage, finishReason };
}

describe("simulated model", () => {
  it("goes on with its step after a steering note, without a second title (decision 069)", async () => {
    const text = await streamText({
      model: fast,
      messages: [
        { role: "user", content: "Launch a newsletter for our bakery" },
        { role: "assistant", content: "## Launch a newsletter for your bakery\n\n1. **Know" },
        {
          role: "user",
          content:
            "The user stopped you to steer your work: focus on the signup form\nContinue from where you stopped, following this note. Do not repeat what you already wrote.",
        },
      ],
      providerOptions: { simulator: { persona: "strategist" } },
    }).text;
    expect(text).toMatch(
      /^Following your note: focus on the signup form\n\n\*\*Goal:\*\* Launch a newsletter/,
    );
    expect(text).not.toMatch(/^## /m);
  });

  it("says what the user asked while the team worked, and which steps they skipped (decision 069)", async () => {
    const { text } = await run({
      // As the engine appends them to the last user turn (queued-messages.ts, steer-lane.ts).
      prompt: [
        "Launch a newsletter for our bakery",
        "The user sent these messages while the team was working; take them into account:\n- Keep it under a page",
        "The user skipped these steps while the team worked, so their results are missing. Say in the answer which were skipped:\n- the Coder's step s2: Build the signup form",
      ].join("\n\n"),
      persona: "strategist",
    });
    // The request is read without the blocks; a section answers each, at the end.
    expect(text).toMatch(/^## Launch a newsletter for your bakery$/m);
    expect(text).not.toContain("take them into account:");
    expect(
      text.endsWith(
        `\n\n**What you said while we worked, taken into account**\n\n- Keep it under a page\n\n**Skipped at your request**\n\n- the Coder's step s2: Build the signup form`,
      ),
    ).toBe(true);
  });

  it("answers as the Strategist with a numbered plan", async () => {
    const { text } = await run({
      prompt: "Launch a newsletter for our bakery",
      persona: "strategist",
    });
    expect(text).toMatch(/^## Launch a newsletter for your bakery$/m);
    expect(text).toMatch(/^1\. \*\*Know the reader\*\*/m);
    expect(text).toMatch(/^3\. /m);
    expect(text).toContain("**Risks**");
  });

  it("answers as the Coder with a fenced code block", async () => {
    const { text } = await run({
      prompt: "Write a python function to total invoices",
      persona: "coder",
    });
    expect(text).toMatch(/```python\n[\s\S]+\n```/);
    const ts = await run({ prompt: "Implement a retrying fetch helper", persona: "coder" });
    expect(ts.text).toMatch(/```ts\n[\s\S]*export (async )?function/);
  });

  it("answers as the Designer with a design spec", async () => {
    const { text } = await run({ prompt: "Design the settings screen", persona: "designer" });
    for (const heading of ["### Layout", "### Components", "### States", "### Accessibility"]) {
      expect(text).toContain(heading);
    }
  });

  it("answers as the Critic with a score out of 10 and a verdict that follows it", async () => {
    const { text } = await run({
      prompt: "Review: a plan to launch a newsletter",
      persona: "critic",
    });
    const score = Number(/^Score: (\d+)\/10$/m.exec(text)?.[1]);
    expect(score).toBeGreaterThanOrEqual(1);
    expect(score).toBeLessThanOrEqual(10);
    expect(text).toMatch(new RegExp(`^Verdict: ${score >= 7 ? "approve" : "revise"}$`, "m"));
  });

  it("scores a revised draft higher, so a revision round can converge", () => {
    for (const seed of [0, 1, 2, 3]) {
      expect(criticScore(seed, "the revised draft")).toBeGreaterThan(criticScore(seed, "a draft"));
      expect(criticScore(seed, "the revised draft")).toBeLessThanOrEqual(9);
    }
  });

  it("recognises the role from its system prompt when no hint is given", async () => {
    const { text } = await run({
      prompt: "Review the drafts",
      system: "You are the Critic in a team of AI agents.",
    });
    expect(text).toMatch(/^Score: \d+\/10$/m);
  });

  it("draws a Markdown SVG image for CoVision and talks for CoChat", async () => {
    const vision = await run({
      prompt: "A red fox in snow",
      model: createSimulatedModel("covision", { tokensPerSecond: 0 }),
    });
    expect(vision.text).toMatch(/!\[A red fox in snow\]\(data:image\/svg\+xml;base64,/);
    const chat = await run({
      prompt: "How do I keep sourdough starter alive?",
      model: createSimulatedModel("cochat", { tokensPerSecond: 0 }),
    });
    expect(chat.text).toMatch(/\?$/);
    expect(chat.text).not.toContain("```");
    // A chat that asks for code gets code, as it would from a real model.
    const code = await run({
      prompt: "Write a TypeScript function that checks a palindrome",
      model: createSimulatedModel("cochat", { tokensPerSecond: 0 }),
    });
    expect(code.text).toContain("```ts");
  });

  it("is deterministic for the same prompt and varies with the prompt", async () => {
    const a = await run({ prompt: "Plan a product launch", persona: "strategist" });
    const b = await run({ prompt: "Plan a product launch", persona: "strategist" });
    const c = await run({ prompt: "Plan a charity run", persona: "strategist" });
    expect(a.text).toBe(b.text);
    expect(c.text).not.toBe(a.text);
  });

  it("reports usage as the shared token estimate of prompt and answer", async () => {
    const prompt = "Explain caching in two sentences";
    const { text, usage } = await run({ prompt, persona: "chat" });
    expect(usage.outputTokens).toBe(estimateTokens(text));
    expect(usage.inputTokens).toBe(estimateTokens(prompt));
  });

  it("stops at maxOutputTokens with finish reason length", async () => {
    const { usage, finishReason } = await run({
      prompt: "Design a dashboard",
      persona: "designer",
      maxOutputTokens: 20,
    });
    expect(finishReason).toBe("length");
    expect(usage.outputTokens).toBeLessThanOrEqual(20);
  });

  it("streams in many pieces at a realistic pace", async () => {
    const paced = createSimulatedModel("coquick", { tokensPerSecond: 2000 });
    const { deltas, text } = await run({
      prompt: "Plan a launch",
      persona: "strategist",
      model: paced,
    });
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(text);
  });

  it("stops streaming at once when aborted", async () => {
    const slow = createSimulatedModel("coreason", { tokensPerSecond: 20 });
    const full = await run({ prompt: "Plan a launch", persona: "strategist" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const { text, parts } = await run({
      prompt: "Plan a launch",
      persona: "strategist",
      model: slow,
      abortSignal: controller.signal,
    });
    expect(parts).toContain("abort");
    // At 20 tokens/s the whole answer would take over ten seconds; a stop cuts it short.
    expect(text.length).toBeLessThan(full.text.length);
  });

  it("returns JSON for the run-plan schema that ZRunPlan accepts", async () => {
    const result = streamText({
      model: fast,
      prompt: "Build a REST API for orders and design its admin screen",
      output: Output.object({ schema: ZRunPlan }),
      onError: () => {},
    });
    await result.consumeStream();
    const plan = ZRunPlan.parse(await result.output);
    expect(plan.steps.map((s) => s.role)).toEqual(["strategist", "coder", "designer", "critic"]);
    expect(plan.steps.at(-1)?.dependsOn).toEqual(["coder-2", "designer-3"]);
  });

  it("returns schema-valid JSON for any other object schema", async () => {
    const schema = z.object({
      title: z.string().min(3).max(40),
      tags: z.array(z.string()).min(2).max(4),
      priority: z.number().int().min(1).max(5),
      status: z.enum(["open", "closed"]),
      done: z.boolean(),
      due: z.string().nullable(),
    });
    const result = streamText({
      model: fast,
      prompt: "Track the office move",
      output: Output.object({ schema }),
      onError: () => {},
    });
    await result.consumeStream();
    expect(schema.safeParse(await result.output).success).toBe(true);
  });
});
