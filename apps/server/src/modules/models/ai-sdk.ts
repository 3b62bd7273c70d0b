/**
 * The AI SDK's core package (`ai`), loaded on first use: a text call reads the provider
 * model's stream directly and needs none of it, so a server that has not yet planned a run
 * or tested a key never loads it (about a quarter of a restart's CPU, decision 020).
 */
type AiSdk = typeof import("ai");

let loading: Promise<AiSdk> | null = null;
let loaded: AiSdk | null = null;

export function loadAiSdk(): Promise<AiSdk> {
  loading ??= import("ai").then((sdk) => {
    loaded = sdk;
    return sdk;
  });
  return loading;
}

/** The package if something has loaded it; errors it defines can only exist once it is. */
export function loadedAiSdk(): AiSdk | null {
  return loaded;
}
