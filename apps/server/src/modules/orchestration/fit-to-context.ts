import { estimateTokens } from "@cohort/contracts";
import type { GatewayMessage } from "../models/gateway";

/** Room kept free for the system prompt's wrapping and estimation error. */
const SAFETY_FRACTION = 0.05;

export interface ContextLimits {
  contextWindow: number;
  maxOutputTokens: number;
}

/**
 * A model's view of the conversation: the newest earlier turns that fit its context window
 * next to the fixed parts (system prompt, the current request and drafts) and the room its
 * answer needs. Turns are dropped oldest first; the kept ones start with a user turn and
 * alternate (consecutive turns of one side are merged), as every provider accepts.
 */
export function fitHistory(
  history: readonly GatewayMessage[],
  fixedText: string,
  limits: ContextLimits,
): GatewayMessage[] {
  const budget =
    Math.floor(limits.contextWindow * (1 - SAFETY_FRACTION)) -
    limits.maxOutputTokens -
    estimateTokens(fixedText);
  const kept: GatewayMessage[] = [];
  let used = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i] as GatewayMessage;
    const cost = estimateTokens(message.content) + 4;
    if (used + cost > budget) break;
    used += cost;
    kept.unshift(message);
  }
  const merged: GatewayMessage[] = [];
  for (const message of kept) {
    const last = merged.at(-1);
    if (last && last.role === message.role) {
      merged[merged.length - 1] = {
        role: last.role,
        content: `${last.content}\n\n${message.content}`,
      };
    } else {
      merged.push({ ...message });
    }
  }
  while (merged[0]?.role === "assistant") merged.shift();
  // The current request follows as a user turn, so the history must end with the assistant.
  if (merged.at(-1)?.role === "user") merged.pop();
  return merged;
}

/**
 * Shortens `text` to about `maxTokens` by cutting out its middle, for a prompt part that
 * alone would not fit (a very long draft); the start and end usually matter most.
 */
export function truncateMiddle(text: string, maxTokens: number): string {
  if (estimateTokens(text) <= maxTokens) return text;
  const keep = Math.max(0, maxTokens * 4 - 40);
  const head = text.slice(0, Math.ceil(keep / 2));
  const tail = text.slice(text.length - Math.floor(keep / 2));
  return `${head}\n\n[… ${text.length - head.length - tail.length} characters left out …]\n\n${tail}`;
}

/** The longest passage text a step gets (about 400 tokens): a long chunk is cut at a word. */
export const PASSAGE_CHARS_MAX = 1600;

/** Per passage, the heading and separators around its text in the prompt. */
const PASSAGE_OVERHEAD_TOKENS = 24;

/**
 * The passages that fit `maxTokens` of a prompt, best first (the order given), each once and
 * each cut to PASSAGE_CHARS_MAX; one that does not fit is skipped for a shorter one after it.
 */
export function fitPassages<P extends { chunk_id: string; text: string }>(
  passages: readonly P[],
  maxTokens: number,
): P[] {
  const kept: P[] = [];
  const seen = new Set<string>();
  let used = 0;
  for (const passage of passages) {
    if (seen.has(passage.chunk_id)) continue;
    const text = cutAtWord(passage.text.trim(), PASSAGE_CHARS_MAX);
    const cost = estimateTokens(text) + PASSAGE_OVERHEAD_TOKENS;
    if (used + cost > maxTokens) continue;
    used += cost;
    seen.add(passage.chunk_id);
    kept.push({ ...passage, text });
  }
  return kept;
}

function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
