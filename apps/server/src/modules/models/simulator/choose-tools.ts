import type { JSONSchema7, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { SimulatorPersona } from "./compose-answer";
import { jsonFromSchema } from "./json-from-schema";
import type { PromptParts } from "./read-prompt";
import type { Random } from "./seeded-random";

/**
 * The simulator's tool use (decision 058): offered tools, it calls the ones that
 * help the way a real model would — through AI SDK tool calls the engine's loop runs:
 * `search_documents` when the task is about the attached documents, `read_url` when the task
 * contains a URL, `web_search` when it asks to look something up on the web, and any other
 * tool whose name's words all appear in the task (a task that says "create a ticket" and a
 * tool named `mcp__tracker__create_ticket`). It calls tools in its first turn only: once the
 * prompt has tool results, it answers.
 */
export interface SimulatedToolCall {
  toolCallId: string;
  toolName: string;
  /** The arguments as JSON text. */
  input: string;
}

type OfferedTool = Extract<
  NonNullable<LanguageModelV3CallOptions["tools"]>[number],
  { type: "function" }
>;

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"')\]]+/i;
const ABOUT_DOCUMENTS =
  /\b(documents?|attached|attachments?|files?|pdfs?|reports?|uploads?|uploaded|according to|contract|manual|handbook)\b/i;
const ON_THE_WEB = /\b(search the web|web search|look up|look it up|latest|news|online|google)\b/i;
/** Roles that act on their task; the Critic and the coordinator only read and judge. */
const ACTING: ReadonlySet<SimulatorPersona> = new Set(["strategist", "coder", "designer", "chat"]);
/** Words of a tool's name that say nothing about what it does. */
const FILLER = new Set(["mcp", "tool", "get", "do", "run", "the", "a", "an", "of", "to", "for"]);

function wordsOf(name: string): string[] {
  const bare = name.startsWith("mcp__") ? (name.split("__").at(-1) ?? name) : name;
  return bare
    .split(/[_\-\s]+|(?<=[a-z])(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 1 && !FILLER.has(w));
}

/** "ticket" matches "tickets", "create" matches "created": a shared stem of 4+ letters. */
function mentions(text: string, word: string): boolean {
  const stem = word.length > 5 ? word.slice(0, word.length - 2) : word;
  return new RegExp(`\\b${stem.replace(/[^a-z0-9]/g, "")}`, "i").test(text);
}

function argsFor(
  tool: OfferedTool,
  focus: string,
  url: string | null,
  prompt: PromptParts,
  random: Random,
): Record<string, unknown> {
  const schema = tool.inputSchema as JSONSchema7;
  const filled = jsonFromSchema(schema, {
    request: focus,
    earlier: prompt.earlier,
    prompt: focus,
    random,
  });
  const args: Record<string, unknown> =
    filled && typeof filled === "object" && !Array.isArray(filled)
      ? { ...(filled as Record<string, unknown>) }
      : {};
  const props = schema.properties ?? {};
  const query = focus.replace(URL_IN_TEXT, "").replace(/\s+/g, " ").trim().slice(0, 200);
  for (const key of Object.keys(props)) {
    if (/^(url|uri|link|href)$/i.test(key) && url) args[key] = url;
    else if (/^(query|q|search|question|text|title|summary)$/i.test(key)) args[key] = query;
  }
  return withFencedCode(args, props, focus);
}

const FENCED = /```([a-z]*)[^\S\n]*\n([\s\S]*?)\n?```/i;
const FENCE_LANGUAGES: Record<string, string> = {
  py: "python",
  python: "python",
  js: "javascript",
  javascript: "javascript",
  ts: "typescript",
  typescript: "typescript",
};

/**
 * A tool that takes a program (`code`, e.g. run_code) runs the one the task brings in a
 * fenced block, in the block's language when the tool offers it: "run this", as a model would.
 */
function withFencedCode(
  args: Record<string, unknown>,
  props: NonNullable<JSONSchema7["properties"]>,
  focus: string,
): Record<string, unknown> {
  const fence = FENCED.exec(focus);
  if (!fence || !("code" in props) || !fence[2]?.trim()) return args;
  const out: Record<string, unknown> = { ...args, code: fence[2] };
  const language = FENCE_LANGUAGES[(fence[1] ?? "").toLowerCase()];
  const offered = (props.language as JSONSchema7 | undefined)?.enum ?? [];
  if (language && offered.includes(language)) out.language = language;
  return out;
}

/**
 * Whether a tool helps with `focus` (a step's task and the request): the rule the simulator's
 * lanes call tools by, and its coordinator names each step's tools by (decision 067).
 */
export function toolFits(name: string, focus: string): boolean {
  const url = URL_IN_TEXT.exec(focus)?.[0] ?? null;
  if (name === "search_documents") return ABOUT_DOCUMENTS.test(focus);
  if (name === "read_url") return url !== null;
  if (name === "web_search") return ON_THE_WEB.test(focus) && !url;
  const words = wordsOf(name);
  return words.length > 0 && words.every((w) => mentions(focus, w));
}

export function chooseToolCalls(options: {
  call: LanguageModelV3CallOptions;
  persona: SimulatorPersona;
  prompt: PromptParts;
  random: Random;
  seed: number;
}): SimulatedToolCall[] {
  const { call, persona, prompt, random, seed } = options;
  const offered = (call.tools ?? []).filter((t): t is OfferedTool => t.type === "function");
  if (offered.length === 0 || !ACTING.has(persona)) return [];
  if (call.toolChoice?.type === "none") return [];
  // Tools are called in the first turn; a prompt with tool results gets the answer.
  if (call.prompt.some((m) => m.role === "tool")) return [];
  const focus = [prompt.task, prompt.request].filter(Boolean).join("\n");
  const url = URL_IN_TEXT.exec(focus)?.[0] ?? null;
  const chosen = offered.filter((tool) => toolFits(tool.name, focus));
  return chosen.slice(0, 4).map((tool, i) => ({
    toolCallId: `call_sim_${(seed >>> 0).toString(16)}_${i + 1}`,
    toolName: tool.name,
    input: JSON.stringify(argsFor(tool, focus, url, prompt, random)),
  }));
}

/** The line the simulator says before its tool calls (shown in the lane). */
export function toolIntro(calls: readonly SimulatedToolCall[]): string {
  const names = calls.map((c) => `\`${c.toolName}\``).join(", ");
  return `I'll use ${names} first.`;
}

/** The results the prompt carries back (tool messages), for the answer to mention. */
export function toolResultsIn(call: LanguageModelV3CallOptions): { tool: string; text: string }[] {
  const results: { tool: string; text: string }[] = [];
  for (const message of call.prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output;
      const text =
        output.type === "text" || output.type === "error-text"
          ? output.value
          : output.type === "json" || output.type === "error-json"
            ? JSON.stringify(output.value)
            : "";
      results.push({ tool: part.toolName, text });
    }
  }
  return results;
}
