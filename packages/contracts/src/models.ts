import { z } from "zod";
import { ceilToHundredths, type Hundredths } from "./money";

/** The product overview: the native Co* models, each with its purpose. The model catalogue extends this. */
export const NATIVE_MODELS = [
  { id: "coreason", name: "CoReason", purpose: "Logical reasoning" },
  { id: "codepth", name: "CoDepth", purpose: "Deep analysis" },
  { id: "coquick", name: "CoQuick", purpose: "Fast responses" },
  { id: "cologic", name: "CoLogic", purpose: "Structured thinking" },
  { id: "cochat", name: "CoChat", purpose: "Natural conversation" },
  { id: "covision", name: "CoVision", purpose: "Image generation" },
] as const;

/** The product overview: the agent roles a coordinator hands work to. */
export const AGENT_ROLES = ["strategist", "coder", "designer", "critic"] as const;
export type TAgentRole = (typeof AGENT_ROLES)[number];
export const AGENT_ROLE_NAMES: Record<TAgentRole, string> = {
  strategist: "Strategist",
  coder: "Coder",
  designer: "Designer",
  critic: "Critic",
};

// ---------------------------------------------------------------------------------------
// The model catalogue on the wire (GET /api/ai/models, /api/models/*, /api/cochat/models).
// Field names are snake_case like the rest of the API's payloads.
// ---------------------------------------------------------------------------------------

export type TNativeModelId = (typeof NATIVE_MODELS)[number]["id"];

export const ZAgentRoleId = z.enum(AGENT_ROLES);

/** The providers a model call can go to; the built-in simulator stands in for any of them. */
export const PROVIDER_IDS = ["openai", "anthropic", "google", "openai-compatible"] as const;
export const ZProviderId = z.enum(PROVIDER_IDS);
export type TProviderId = z.infer<typeof ZProviderId>;
export const PROVIDER_NAMES: Record<TProviderId | "simulator", string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google",
  "openai-compatible": "OpenAI-compatible (local)",
  simulator: "Built-in simulator",
};

/** Shown next to every model name that answers from the built-in simulator. */
export const SIMULATED_BADGE = "Simulated";

/**
 * What answers a model's calls, for the signed-in user (decision 029): their own key, one of
 * Cohort's hosted keys, the installation's local OpenAI-compatible server, or the simulator.
 */
export const MODEL_SOURCES = ["user_key", "hosted_key", "local_server", "simulator"] as const;
export const ZModelSource = z.enum(MODEL_SOURCES);
export type TModelSource = z.infer<typeof ZModelSource>;
export const MODEL_SOURCE_LABELS: Record<TModelSource, string> = {
  user_key: "Your key",
  hosted_key: "Hosted key",
  local_server: "Local server",
  simulator: SIMULATED_BADGE,
};

/** Where a user's provider keys are managed; errors about a key link here. */
export const PROVIDER_KEYS_SETTINGS_PATH = "/settings";

/** The start of every error about a user's key that its provider refused (401/403). */
export function userKeyRefusedMessage(provider: TProviderId): string {
  return `Your ${PROVIDER_NAMES[provider]} key in Settings was refused`;
}

/**
 * Credits charged per 1,000 tokens. One credit is one US cent of provider list price. An image
 * model (decision 064) is priced per image: each of its calls makes one image.
 */
export const ZModelPrice = z.object({
  input_per_1k: z.number().nonnegative(),
  output_per_1k: z.number().nonnegative(),
  /** Credits per image made; only image models have it. */
  per_image: z.number().nonnegative().optional(),
});
export type TModelPrice = z.infer<typeof ZModelPrice>;

export const MODEL_CAPABILITIES = ["text", "structured", "image"] as const;

/**
 * An image model (decision 064): it makes images, not text (its capabilities hold "image"
 * and not "text"). A call of it makes one image, priced per image.
 */
export function makesImages(model: { capabilities: readonly string[] }): boolean {
  return model.capabilities.includes("image") && !model.capabilities.includes("text");
}

export const ZModel = z.object({
  /** Stable id used in API calls: `coreason`, `gpt-4.1`, `local:llama3.1`. */
  id: z.string(),
  name: z.string(),
  kind: z.enum(["native", "external", "local"]),
  family: z.enum(["co", "gpt", "claude", "gemini", "local"]),
  purpose: z.string(),
  description: z.string(),
  /** The provider that serves the model now (the first configured one of `providers`). */
  provider: ZProviderId,
  /** Backing providers in preference order; a failing one falls back to the next. */
  providers: z.array(ZProviderId),
  /** True when no provider of this model has a key: the built-in simulator answers. */
  simulated: z.boolean(),
  /** "Simulated" when simulated, else null; the UI shows it wherever the name is shown. */
  badge: z.literal(SIMULATED_BADGE).nullable(),
  /** What answers this model's calls for the caller (their keys counted when signed in). */
  source: ZModelSource,
  capabilities: z.array(z.enum(MODEL_CAPABILITIES)),
  context_window: z.number().int().positive(),
  max_output_tokens: z.number().int().positive(),
  default_temperature: z.number().min(0).max(2),
  price: ZModelPrice,
  /** The agent roles this model suits. */
  roles: z.array(ZAgentRoleId),
});
export type TModel = z.infer<typeof ZModel>;

export const ZModelsResponse = z.object({ models: z.array(ZModel) });
export type TModelsResponse = z.infer<typeof ZModelsResponse>;

export const ZModelResponse = z.object({ model: ZModel });
export type TModelResponse = z.infer<typeof ZModelResponse>;

/** The product overview: "CoChat is a separate chat feature with its own model list"; the first is the default. */
export const ZCochatModelsResponse = z.object({ data: z.array(ZModel) });
export type TCochatModelsResponse = z.infer<typeof ZCochatModelsResponse>;

/** Embedding models: a list of their own (documents' hybrid search), never chat models. */
export const EMBEDDING_PROVIDER_IDS = ["openai", "openai-compatible"] as const;

/** Credits charged per 1,000 input tokens (embeddings have no output), as ZModelPrice. */
export const ZEmbeddingPrice = z.object({ input_per_1k: z.number().nonnegative() });
export type TEmbeddingPrice = z.infer<typeof ZEmbeddingPrice>;

export const ZEmbeddingModel = z.object({
  /** `text-embedding-3-small`, or `local:<name>` for OPENAI_COMPATIBLE_EMBEDDING_MODELS. */
  id: z.string(),
  name: z.string(),
  provider: z.enum(EMBEDDING_PROVIDER_IDS),
  /** Length of its vectors; null when the catalogue does not know it (local models). */
  dimensions: z.number().int().positive().nullable(),
  price: ZEmbeddingPrice,
  /** Its provider has a key (or base URL) on this installation. */
  usable: z.boolean(),
});
export type TEmbeddingModel = z.infer<typeof ZEmbeddingModel>;

/** GET /api/models/embeddings. */
export const ZEmbeddingModelsResponse = z.object({
  models: z.array(ZEmbeddingModel),
  /** The model documents are embedded with (EMBEDDING_MODEL); null: keyword search only. */
  documents_model: z.string().nullable(),
});
export type TEmbeddingModelsResponse = z.infer<typeof ZEmbeddingModelsResponse>;

/** An agent role as the API describes it (TAgentRole is the role id). */
export const ZAgentRole = z.object({
  id: ZAgentRoleId,
  name: z.string(),
  description: z.string(),
  default_model: z.string(),
  suitable_models: z.array(z.string()),
});
export type TAgentRoleInfo = z.infer<typeof ZAgentRole>;

export const ZAgentRolesResponse = z.object({ roles: z.array(ZAgentRole) });
export type TAgentRolesResponse = z.infer<typeof ZAgentRolesResponse>;

const queryBoolean = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");

/** GET /api/models/available: `role` filters by suitability; includeExternal=false keeps natives. */
export const ZAvailableModelsQuery = z.object({
  role: z.string().optional(),
  includeExternal: queryBoolean.default(true),
});

export const ZAvailableModelsResponse = z.object({
  models: z.array(ZModel),
  /** The role's default model when `role` was given, else null. */
  default_model: z.string().nullable(),
});
export type TAvailableModelsResponse = z.infer<typeof ZAvailableModelsResponse>;

export const ZModelsByRoleResponse = z.object({
  role: ZAgentRole,
  default_model: z.string(),
  models: z.array(ZModel),
});
export type TModelsByRoleResponse = z.infer<typeof ZModelsByRoleResponse>;

/** A local model server found on a loopback port (decision 056). */
export const ZLocalModelServer = z.object({
  name: z.string().describe('"Ollama", "LM Studio", "llama.cpp", "vLLM", or "port N"'),
  port: z.number().int(),
  models: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type TLocalModelServer = z.infer<typeof ZLocalModelServer>;

export const ZLocalModelServersResponse = z.object({
  /** on: looked for; off: LOCAL_MODEL_DISCOVERY=0; configured: OPENAI_COMPATIBLE_BASE_URL wins. */
  discovery: z.enum(["on", "off", "configured"]),
  servers: z.array(ZLocalModelServer),
  looked_at: z.string().nullable(),
});
export type TLocalModelServersResponse = z.infer<typeof ZLocalModelServersResponse>;

/** One provider's state as seen from recent calls (passive: no probe calls cost money). */
export const ZModelHealth = z.object({
  provider: z.union([ZProviderId, z.literal("simulator")]),
  name: z.string(),
  /** A hosted key (or base URL for local servers) is configured. */
  configured: z.boolean(),
  mode: z.enum(["real", "simulated"]),
  /** Outcome of the last call through the hosted key; null before the first call. */
  reachable: z.boolean().nullable(),
  last_success_at: z.string().nullable(),
  last_error: z.object({ code: z.string(), message: z.string(), at: z.string() }).nullable(),
  /** Median over the last 50 calls, in milliseconds. */
  latency_ms_p50: z.number().nullable(),
  ttft_ms_p50: z.number().nullable(),
  samples: z.number().int().nonnegative(),
  /**
   * Calls this instance made on users' own keys for the provider, and how many failed
   * (decision 056): counted, never said whose.
   */
  user_key_calls: z.number().int().nonnegative(),
  user_key_failures: z.number().int().nonnegative(),
});
export type TModelHealth = z.infer<typeof ZModelHealth>;

export const ZModelsHealthResponse = z.object({
  /** degraded: a configured provider failed its last call. */
  status: z.enum(["ok", "degraded"]),
  /** True when no provider is configured and every model is simulated. */
  all_simulated: z.boolean(),
  providers: z.array(ZModelHealth),
});
export type TModelsHealthResponse = z.infer<typeof ZModelsHealthResponse>;

/** Error codes of model calls and the catalogue (the web client switches on these). */
export const MODEL_ERROR_CODES = {
  modelNotFound: "model_not_found",
  unknownRole: "unknown_role",
  providerUnavailable: "provider_unavailable",
  providerTimeout: "provider_timeout",
  providerKeyRejected: "provider_key_rejected",
  streamInterrupted: "provider_stream_interrupted",
  invalidOutput: "model_output_invalid",
  callAborted: "model_call_aborted",
} as const;

// ---------------------------------------------------------------------------------------
// The coordinator's plan for a run (docs/architecture.md, "A run's path").
// ---------------------------------------------------------------------------------------

export const MAX_PLAN_STEPS = 8;

export const ZRunPlanStep = z.object({
  id: z.string().min(1).max(40),
  role: ZAgentRoleId,
  task: z.string().min(1).max(2000),
  /** Ids of earlier steps whose output this step needs; empty means it can start at once. */
  dependsOn: z.array(z.string()),
});

export const ZRunPlan = z
  .object({
    rationale: z.string().min(1).max(2000),
    steps: z.array(ZRunPlanStep).min(1).max(MAX_PLAN_STEPS),
  })
  .superRefine((plan, ctx) => {
    // Dependencies may only point backwards, which rules out cycles without a graph walk.
    const seen = new Set<string>();
    plan.steps.forEach((step, index) => {
      if (seen.has(step.id)) {
        ctx.addIssue({ code: "custom", path: ["steps", index, "id"], message: "duplicate id" });
      }
      for (const dep of step.dependsOn) {
        if (!seen.has(dep)) {
          ctx.addIssue({
            code: "custom",
            path: ["steps", index, "dependsOn"],
            message: `"${dep}" is not an earlier step`,
          });
        }
      }
      seen.add(step.id);
    });
  });
export type TRunPlan = z.infer<typeof ZRunPlan>;

// ---------------------------------------------------------------------------------------
// Pricing: pure functions shared by the server (charging) and the web app (estimates).
// ---------------------------------------------------------------------------------------

export interface TTokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * The one token estimate used wherever a provider reports no count (the simulator, the
 * reservation of a call's worst case): about four characters per token, as for English text.
 */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/**
 * What a finished call costs, from the model's price and its token usage (rounded up). A call
 * of an image model makes one image and adds its `per_image` price (decision 064).
 */
export function priceCall(model: { price: TModelPrice }, usage: TTokenUsage): Hundredths {
  const raw =
    (usage.inputTokens * model.price.input_per_1k +
      usage.outputTokens * model.price.output_per_1k) /
      1000 +
    (model.price.per_image ?? 0);
  return ceilToHundredths(raw);
}

/** The most a call can cost: what a credit reservation holds before the call starts. */
export function worstCaseCredits(
  model: { price: TModelPrice },
  inputTokensEstimate: number,
  maxOutputTokens: number,
): Hundredths {
  return priceCall(model, { inputTokens: inputTokensEstimate, outputTokens: maxOutputTokens });
}
