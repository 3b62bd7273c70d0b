import { readCappedBody } from "../../platform/read-capped-body";
import type { ModelsConfig } from "./models-config";

/**
 * Local model servers found on this machine's loopback ports (decision 056): Ollama, LM
 * Studio, llama.cpp's server and vLLM all answer the OpenAI-compatible `GET /v1/models`, so
 * one probe per port tells whether a server is there and which models it serves. Probes run
 * in parallel with a short time-out each, so looking never takes longer than the slowest
 * port's time-out, and a closed port answers at once.
 */
export interface LocalModelServer {
  /** "Ollama", "LM Studio"…: the port's name, else what the answer tells, else "port N". */
  name: string;
  port: number;
  baseUrl: string;
  /** The models' names as the server spells them, in its order. */
  models: readonly string[];
}

export type DiscoverySettings = NonNullable<ModelsConfig["localDiscovery"]>;

export interface LocalModelServers {
  readonly enabled: boolean;
  /** What the last look found (empty before the first one ends). */
  servers(): readonly LocalModelServer[];
  /** When the last look ended; null before the first one. */
  lookedAt(): Date | null;
  /** Probes every port again; concurrent calls share one look. */
  lookAgain(): Promise<readonly LocalModelServer[]>;
  /** The base URL of the server that serves `model` (the first port's, when several do). */
  baseUrlOf(model: string): string | undefined;
  /** Called after each look that changed the list of servers or models. */
  onChange(listener: () => void): void;
}

/** A server answering more than this is not a model list (nor a local model server). */
const MAX_ANSWER_BYTES = 1024 * 1024;
const MAX_MODELS_PER_SERVER = 100;
const MODEL_NAME = /^[\w.:/@+-]{1,200}$/;
/** Embedding models are listed by the same endpoint but cannot chat. */
const EMBEDDING_NAME = /embed/i;

/** The `owned_by` each server writes in its model list, for ports with no name. */
const OWNERS: Record<string, string> = {
  library: "Ollama",
  llamacpp: "llama.cpp",
  vllm: "vLLM",
  organization_owner: "LM Studio",
};

interface ModelEntry {
  id?: unknown;
  owned_by?: unknown;
}

async function readLimited(response: Response): Promise<string | null> {
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > MAX_ANSWER_BYTES || !response.body) return null;
  const { body, truncated } = await readCappedBody(response, MAX_ANSWER_BYTES);
  return truncated
    ? null
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
}

/** One port: its server and models, or null when nothing (or no model server) answers. */
export async function probePort(
  port: number,
  name: string | undefined,
  timeoutMs: number,
): Promise<LocalModelServer | null> {
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    const response = await fetch(`${baseUrl}/models`, {
      signal,
      redirect: "error",
      headers: { accept: "application/json" },
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const text = await readLimited(response);
    if (text === null) return null;
    const body = JSON.parse(text) as { data?: unknown };
    if (!Array.isArray(body.data)) return null;
    const entries = (body.data as ModelEntry[]).slice(0, MAX_MODELS_PER_SERVER * 2);
    const models = entries
      .map((entry) => entry?.id)
      .filter((id): id is string => typeof id === "string" && MODEL_NAME.test(id))
      .filter((id) => !EMBEDDING_NAME.test(id))
      .slice(0, MAX_MODELS_PER_SERVER);
    if (models.length === 0) return null;
    const owner = entries.map((entry) => entry?.owned_by).find((o) => typeof o === "string");
    const known = typeof owner === "string" ? OWNERS[owner] : undefined;
    return { name: name ?? known ?? `port ${port}`, port, baseUrl, models };
  } catch {
    // Refused, timed out, not JSON: no model server on this port.
    return null;
  }
}

function sameServers(a: readonly LocalModelServer[], b: readonly LocalModelServer[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function createLocalModelServers(
  settings: DiscoverySettings | undefined,
  log?: { info(details: object, message: string): void },
): LocalModelServers {
  const enabled = settings?.enabled === true && settings.ports.length > 0;
  let found: readonly LocalModelServer[] = [];
  let lookedAt: Date | null = null;
  let looking: Promise<readonly LocalModelServer[]> | null = null;
  const listeners: (() => void)[] = [];

  async function look(): Promise<readonly LocalModelServer[]> {
    if (!settings || !enabled) return [];
    const answers = await Promise.all(
      settings.ports.map((p) => probePort(p.port, p.name, settings.timeoutMs)),
    );
    const servers = answers.filter((s): s is LocalModelServer => s !== null);
    const changed = !sameServers(found, servers);
    found = servers;
    lookedAt = new Date();
    if (changed) {
      log?.info(
        { servers: servers.map((s) => ({ name: s.name, port: s.port, models: s.models.length })) },
        servers.length > 0 ? "local model servers found" : "no local model server found",
      );
      for (const listener of listeners) listener();
    }
    return servers;
  }

  return {
    enabled,
    servers: () => found,
    lookedAt: () => lookedAt,
    lookAgain() {
      looking ??= look().finally(() => {
        looking = null;
      });
      return looking;
    },
    baseUrlOf(model) {
      return found.find((server) => server.models.includes(model))?.baseUrl;
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
