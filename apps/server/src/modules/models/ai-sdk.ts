/**
 * The AI SDK's core package (`ai`), loaded on first use: calls read the provider model's
 * stream directly and need none of it; only a structured call's JSON schema is built with it,
 * once per schema. A server that has not yet planned a run never loads it (about a quarter of
 * a restart's CPU, decision 020).
 */
type AiSdk = typeof import("ai");

let loading: Promise<AiSdk> | null = null;

export function loadAiSdk(): Promise<AiSdk> {
  loading ??= import("ai");
  return loading;
}
