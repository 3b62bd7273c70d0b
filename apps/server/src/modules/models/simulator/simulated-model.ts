import { setTimeout as delay } from "node:timers/promises";
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { estimateTokens } from "@cohort/contracts";
import { chooseToolCalls, type SimulatedToolCall, toolIntro, toolResultsIn } from "./choose-tools";
import { composeAnswer, type SimulatorPersona } from "./compose-answer";
import { jsonFromSchema } from "./json-from-schema";
import { simulatedMemoryLines } from "./propose-memory-lines";
import { readPrompt } from "./read-prompt";
import { hashString, seededRandom } from "./seeded-random";

/**
 * The built-in simulator as an AI SDK language model (specification v3), so a simulated call
 * goes through exactly the same `streamText` path, abort handling and usage accounting as a
 * real provider. It answers in the shape of the role that asks, deterministically for the
 * same prompt, at a realistic pace.
 */
export interface SimulatorOptions {
  /** Streaming pace; 0 streams as fast as possible (tests). */
  tokensPerSecond: number;
}

/** Per-call hints, passed as `providerOptions.simulator` (real providers ignore them). */
export interface SimulatorCallHints {
  persona?: SimulatorPersona;
}

const PERSONAS: readonly SimulatorPersona[] = [
  "strategist",
  "coder",
  "designer",
  "critic",
  "coordinator",
  "chat",
  "vision",
];

/**
 * How thorough each model's simulated drafts are (more steps, risks, decisions). The roles'
 * default models keep 1, so the default run's length (and its pace in the browser tests)
 * stays as it was; each model's plan still differs by its angle (compose-answer.ts).
 */
const DEPTH: Record<string, number> = {
  coquick: 0.6,
  codepth: 1.5,
  "gpt-4.1": 1.2,
  "gpt-4.1-mini": 0.8,
  "claude-sonnet-4": 1.3,
  "gemini-2.5-flash": 0.8,
};

function textOf(content: LanguageModelV3CallOptions["prompt"][number]["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** A plain chat message that asks for code (CoChat users do): answered with code, as a real model would. */
const CODE_REQUEST =
  /\b(write|show|give|implement|create|generate|code)\b[^.?!\n]*\b(code|function|script|snippet|class|program|query|regex)\b|\bin (python|typescript|javascript|java|go|rust|sql|bash)\b/i;

function personaFor(
  modelId: string,
  system: string,
  hint: unknown,
  request: string,
): SimulatorPersona {
  if (typeof hint === "string" && (PERSONAS as readonly string[]).includes(hint)) {
    return hint as SimulatorPersona;
  }
  if (modelId === "covision") return "vision";
  const role = /\bYou are the (Strategist|Coder|Designer|Critic)\b/.exec(system)?.[1];
  if (role) return role.toLowerCase() as SimulatorPersona;
  if (/\bcoordinator\b/i.test(system)) return "coordinator";
  return CODE_REQUEST.test(request) ? "coder" : "chat";
}

interface PreparedAnswer {
  text: string;
  usage: LanguageModelV3Usage;
  finishReason: LanguageModelV3FinishReason;
  /** The tools it asks for (then `text` is a short line before them). */
  toolCalls?: SimulatedToolCall[];
}

/** What the tools returned, as the answer's closing section mentions it (data, quoted). */
function toolNotes(results: readonly { tool: string; text: string }[]): string {
  if (results.length === 0) return "";
  const lines = results.map(({ tool, text }) => {
    const body = text
      .replace(/<\/?tool_output[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    const gist = body.length > 160 ? `${body.slice(0, 157)}…` : body;
    // The sources the tool layer numbered for the run (decision 067), cited as [n].
    const listed = text.split("\n\nSources:\n")[1] ?? "";
    const numbers = [...listed.matchAll(/^\[(\d+)\] /gm)].map((m) => m[1]);
    const cite = numbers.length > 0 ? ` [${numbers.join(", ")}]` : "";
    return `- \`${tool}\`: ${gist || "(no text)"}${cite}`;
  });
  return `\n\n**What the tools returned**\n\n${lines.join("\n")}`;
}

function usageOf(inputTokens: number, outputTokens: number): LanguageModelV3Usage {
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
  };
}

/**
 * What the engine appends to a step's or the answer's prompt while the user steers
 * (orchestration/queued-messages.ts userNotesBlock, steer-lane.ts skippedNote), with the
 * heading the simulated answer gives it: a model that follows the prompt says so.
 */
const STEERING_BLOCKS: readonly [string, string][] = [
  [
    "The user sent these messages while the team was working; take them into account:",
    "What you said while we worked, taken into account",
  ],
  [
    "The user skipped these steps while the team worked, so their results are missing. Say in the answer which were skipped:",
    "Skipped at your request",
  ],
];

/** The turn without the steering blocks, and the closing sections that answer them. */
function steeringNotes(turn: string): { turn: string; closing: string } {
  let rest = turn;
  let closing = "";
  for (const [heading, title] of STEERING_BLOCKS) {
    const at = rest.indexOf(`\n\n${heading}\n`);
    if (at < 0) continue;
    const after = rest.slice(at + heading.length + 3);
    const lines = after.split("\n");
    const count = lines.findIndex((line) => !line.startsWith("- "));
    const items = count < 0 ? lines : lines.slice(0, count);
    rest = rest.slice(0, at) + (count < 0 ? "" : `\n${lines.slice(count).join("\n")}`);
    closing += `\n\n**${title}**\n\n${items.join("\n")}`;
  }
  return { turn: rest.trimEnd(), closing };
}

/**
 * A steered lane's next turn (orchestration/steer-lane.ts continued): the note, then "continue
 * from where you stopped". The simulator goes on with the step it was given, following the note.
 */
const STEERED = /^The user stopped you to steer your work: ([^\n]*)\n/;

/** The plan call's repair turn (orchestration/prompts.ts planRepair): not the user's words. */
const PLAN_REPAIR = /^Your previous answer could not be used as the plan:/;

function prepare(modelId: string, call: LanguageModelV3CallOptions): PreparedAnswer {
  const system = call.prompt
    .filter((m) => m.role === "system")
    .map((m) => textOf(m.content))
    .join("\n");
  const userTurns = call.prompt
    .filter((m) => m.role === "user")
    .map((m) => textOf(m.content))
    .filter((text) => !PLAN_REPAIR.test(text));
  const steerNote = STEERED.exec(userTurns.at(-1) ?? "")?.[1];
  // Steered: the step's own turn is the one before the note.
  const turns =
    steerNote !== undefined && userTurns.length > 1 ? userTurns.slice(0, -1) : userTurns;
  const steering = steeringNotes(turns.at(-1) ?? "");
  const lastUser = steering.turn;
  const prompt = readPrompt(lastUser, turns.slice(0, -1));
  const everything = call.prompt.map((m) => textOf(m.content)).join("\n");
  const hints = call.providerOptions?.simulator as SimulatorCallHints | undefined;
  const persona = personaFor(modelId, system, hints?.persona, prompt.request);
  const seed = hashString(`${modelId}\u0000${persona}\u0000${everything}`);
  const inputTokens = estimateTokens(everything);

  if (call.responseFormat?.type === "json") {
    const value = jsonFromSchema(call.responseFormat.schema, {
      request: prompt.request,
      earlier: prompt.earlier,
      prompt: everything,
      documents: prompt.documents,
      tools: prompt.tools,
      random: seededRandom(seed),
    });
    const text = JSON.stringify(value);
    return {
      text,
      usage: usageOf(inputTokens, estimateTokens(text)),
      finishReason: { unified: "stop", raw: "stop" },
    };
  }

  const toolCalls = chooseToolCalls({ call, persona, prompt, random: seededRandom(seed), seed });
  if (toolCalls.length > 0) {
    const intro = toolIntro(toolCalls);
    const out = intro + toolCalls.map((c) => c.toolName + c.input).join("");
    return {
      text: intro,
      usage: usageOf(inputTokens, estimateTokens(out)),
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      toolCalls,
    };
  }
  const composed =
    simulatedMemoryLines(system, lastUser) ??
    composeAnswer({ persona, prompt, depth: DEPTH[modelId] ?? 1, seed, modelId });
  let text =
    (steerNote === undefined
      ? composed
      : // It goes on from where it stopped: no second title.
        `Following your note: ${steerNote}\n\n${composed.replace(/^## [^\n]*\n+/, "")}`) +
    toolNotes(toolResultsIn(call)) +
    steering.closing;
  let finishReason: LanguageModelV3FinishReason = { unified: "stop", raw: "stop" };
  const limit = call.maxOutputTokens;
  if (limit !== undefined && estimateTokens(text) > limit) {
    text = text.slice(0, limit * 4);
    finishReason = { unified: "length", raw: "length" };
  }
  return { text, usage: usageOf(inputTokens, estimateTokens(text)), finishReason };
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** A pause that a stop ends at once, failing with the stop's own reason (as providers do). */
async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await delay(ms, undefined, signal ? { signal } : {});
  } catch (error) {
    throw signal?.aborted ? abortError(signal) : error;
  }
}

/** Words with their leading whitespace: the simulator's unit of streaming. */
function piecesOf(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

export function createSimulatedModel(modelId: string, options: SimulatorOptions): LanguageModelV3 {
  const tps = options.tokensPerSecond;
  return {
    specificationVersion: "v3",
    provider: "simulator",
    modelId,
    supportedUrls: {},

    async doGenerate(call) {
      if (call.abortSignal?.aborted) throw abortError(call.abortSignal);
      const answer = prepare(modelId, call);
      return {
        content: [
          { type: "text", text: answer.text },
          ...(answer.toolCalls ?? []).map((c) => ({ type: "tool-call" as const, ...c })),
        ],
        finishReason: answer.finishReason,
        usage: answer.usage,
        warnings: [],
        response: { id: `sim-${hashString(answer.text).toString(16)}`, modelId },
      };
    },

    async doStream(call) {
      const signal = call.abortSignal;
      if (signal?.aborted) throw abortError(signal);
      const answer = prepare(modelId, call);
      let cancelled = false;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async start(controller) {
          try {
            controller.enqueue({ type: "stream-start", warnings: [] });
            controller.enqueue({
              type: "response-metadata",
              id: `sim-${hashString(answer.text).toString(16)}`,
              modelId,
              timestamp: new Date(),
            });
            // Time to first token grows with the pace, as with real models: ~0.25 s at 60/s.
            const started = performance.now();
            const firstTokenMs = tps > 0 ? Math.min(400, 15_000 / tps) : 0;
            await sleep(firstTokenMs, signal);
            controller.enqueue({ type: "text-start", id: "text-0" });
            let sentTokens = 0;
            let batch: string[] = [];
            for (const piece of piecesOf(answer.text)) {
              if (cancelled) return;
              batch.push(piece);
              const text = batch.join("");
              // Unpaced (tests): a few large deltas. Paced: batches keep timers at >= 10 ms,
              // so fast paces do not drown in timer overhead.
              let wait = 0;
              if (tps > 0) {
                const due = started + firstTokenMs + ((sentTokens + text.length / 4) * 1000) / tps;
                wait = due - performance.now();
                if (wait < 10) continue;
              } else if (batch.length < 16) {
                continue;
              }
              controller.enqueue({ type: "text-delta", id: "text-0", delta: text });
              sentTokens += text.length / 4;
              batch = [];
              await sleep(wait, signal);
            }
            if (batch.length > 0) {
              controller.enqueue({ type: "text-delta", id: "text-0", delta: batch.join("") });
            }
            controller.enqueue({ type: "text-end", id: "text-0" });
            for (const toolCall of answer.toolCalls ?? []) {
              controller.enqueue({
                type: "tool-call",
                toolCallId: toolCall.toolCallId,
                toolName: toolCall.toolName,
                input: toolCall.input,
              });
            }
            controller.enqueue({
              type: "finish",
              usage: answer.usage,
              finishReason: answer.finishReason,
            });
            controller.close();
          } catch (error) {
            if (!cancelled) controller.error(error);
          }
        },
        cancel() {
          cancelled = true;
        },
      });
      return { stream, request: { body: { simulated: true } } };
    },
  };
}
