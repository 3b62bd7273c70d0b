import type { CatalogueEmbeddingModel, CatalogueModel, CatalogueRole } from "./catalogue-schema";

/**
 * The built-in catalogue. Prices are in credits per 1,000 tokens, where one credit is one US
 * cent of the provider's list price (so plan prices carry the margin). A native model is
 * priced at its most expensive backing model, so a fallback never charges less than it costs.
 * The context window of a native model is the smallest of its backings, so a fallback never
 * overflows. Operators change any of this with MODELS_CONFIG_FILE.
 */

const OPENAI = "openai" as const;
const ANTHROPIC = "anthropic" as const;
const GOOGLE = "google" as const;

const TEXT = ["text", "structured"] as const;

export const DEFAULT_MODELS: readonly CatalogueModel[] = [
  {
    id: "coreason",
    name: "CoReason",
    kind: "native",
    family: "co",
    purpose: "Logical reasoning",
    description:
      "Works through a problem step by step, states its assumptions and checks each inference. Best for plans, decisions and trade-offs.",
    backends: [
      { provider: OPENAI, model: "gpt-4.1" },
      { provider: ANTHROPIC, model: "claude-sonnet-4-0" },
      { provider: GOOGLE, model: "gemini-2.5-pro" },
    ],
    systemPrompt:
      "You are CoReason, Cohort's reasoning model. Think step by step, state your assumptions, check each inference, and end with a clear conclusion.",
    temperature: 0.3,
    maxOutputTokens: 4096,
    contextWindow: 200_000,
    price: { input_per_1k: 0.3, output_per_1k: 1.5 },
    capabilities: [...TEXT],
  },
  {
    id: "codepth",
    name: "CoDepth",
    kind: "native",
    family: "co",
    purpose: "Deep analysis",
    description:
      "Reads long material closely and goes deep: causes, evidence, edge cases and second-order effects. Slower, longer answers.",
    backends: [
      { provider: ANTHROPIC, model: "claude-sonnet-4-0" },
      { provider: OPENAI, model: "gpt-4.1" },
      { provider: GOOGLE, model: "gemini-2.5-pro" },
    ],
    systemPrompt:
      "You are CoDepth, Cohort's analysis model. Go deep: examine causes, evidence, edge cases and second-order effects. Organise long answers with headings and say how confident you are.",
    temperature: 0.5,
    maxOutputTokens: 8192,
    contextWindow: 200_000,
    price: { input_per_1k: 0.3, output_per_1k: 1.5 },
    capabilities: [...TEXT],
  },
  {
    id: "coquick",
    name: "CoQuick",
    kind: "native",
    family: "co",
    purpose: "Fast responses",
    description: "Short, direct answers with the lowest latency and price. Good for quick drafts.",
    backends: [
      { provider: OPENAI, model: "gpt-4.1-mini" },
      { provider: ANTHROPIC, model: "claude-haiku-4-5" },
      { provider: GOOGLE, model: "gemini-2.5-flash" },
    ],
    systemPrompt:
      "You are CoQuick, Cohort's fast model. Answer directly and briefly; use a short list only when it helps.",
    temperature: 0.5,
    maxOutputTokens: 2048,
    contextWindow: 200_000,
    price: { input_per_1k: 0.1, output_per_1k: 0.5 },
    capabilities: [...TEXT],
  },
  {
    id: "cologic",
    name: "CoLogic",
    kind: "native",
    family: "co",
    purpose: "Structured thinking",
    description:
      "Precise, well-structured output: specifications, code, tables and JSON. Low temperature for consistent results.",
    backends: [
      { provider: OPENAI, model: "gpt-4.1" },
      { provider: GOOGLE, model: "gemini-2.5-pro" },
      { provider: ANTHROPIC, model: "claude-sonnet-4-0" },
    ],
    systemPrompt:
      "You are CoLogic, Cohort's structured-thinking model. Be precise and systematic: define terms, use numbered structure, tables or code where they fit, and leave nothing to be filled in later.",
    temperature: 0.2,
    maxOutputTokens: 4096,
    contextWindow: 200_000,
    price: { input_per_1k: 0.3, output_per_1k: 1.5 },
    capabilities: [...TEXT],
  },
  {
    id: "cochat",
    name: "CoChat",
    kind: "native",
    family: "co",
    purpose: "Natural conversation",
    description: "A friendly, natural conversation partner; the default model of CoChat.",
    backends: [
      { provider: OPENAI, model: "gpt-4o" },
      { provider: ANTHROPIC, model: "claude-haiku-4-5" },
      { provider: GOOGLE, model: "gemini-2.5-flash" },
    ],
    systemPrompt:
      "You are CoChat, Cohort's conversational model. Be warm, natural and helpful; keep answers as short as the question allows and ask a follow-up question when the request is unclear.",
    temperature: 0.7,
    maxOutputTokens: 2048,
    contextWindow: 128_000,
    price: { input_per_1k: 0.25, output_per_1k: 1 },
    capabilities: [...TEXT],
  },
  {
    id: "covision",
    name: "CoVision",
    kind: "native",
    family: "co",
    purpose: "Image generation",
    description:
      "Turns a description into a picture, stored with the session and downloadable. Useful for mock-ups, illustrations and icons.",
    // Image models through the AI SDK's image generation (decision 064). Without a key the
    // simulator draws a labelled vector picture.
    backends: [
      { provider: OPENAI, model: "gpt-image-1" },
      { provider: GOOGLE, model: "imagen-4.0-generate-001" },
    ],
    systemPrompt: "",
    temperature: 0.8,
    maxOutputTokens: 256,
    contextWindow: 8192,
    // gpt-image-1 at medium quality, 1024×1024: $0.042; Imagen 4: $0.04 (the dearer one).
    price: { input_per_1k: 0, output_per_1k: 0, per_image: 4.2 },
    capabilities: ["image"],
  },
  {
    id: "gpt-4.1",
    name: "GPT-4.1",
    kind: "external",
    family: "gpt",
    purpose: "General intelligence",
    description:
      "OpenAI's flagship non-reasoning model: strong at instructions, code and long context.",
    backends: [{ provider: OPENAI, model: "gpt-4.1" }],
    systemPrompt: "",
    temperature: 0.7,
    maxOutputTokens: 4096,
    contextWindow: 1_047_576,
    price: { input_per_1k: 0.2, output_per_1k: 0.8 },
    capabilities: [...TEXT],
  },
  {
    id: "gpt-4.1-mini",
    name: "GPT-4.1 mini",
    kind: "external",
    family: "gpt",
    purpose: "Fast and affordable",
    description: "A smaller, faster GPT-4.1 at a fraction of the price.",
    backends: [{ provider: OPENAI, model: "gpt-4.1-mini" }],
    systemPrompt: "",
    temperature: 0.7,
    maxOutputTokens: 4096,
    contextWindow: 1_047_576,
    price: { input_per_1k: 0.04, output_per_1k: 0.16 },
    capabilities: [...TEXT],
  },
  {
    id: "gpt-4o",
    name: "GPT-4o",
    kind: "external",
    family: "gpt",
    purpose: "Versatile conversation",
    description: "OpenAI's versatile multimodal model, fluent in conversation.",
    backends: [{ provider: OPENAI, model: "gpt-4o" }],
    systemPrompt: "",
    temperature: 0.7,
    maxOutputTokens: 4096,
    contextWindow: 128_000,
    price: { input_per_1k: 0.25, output_per_1k: 1 },
    capabilities: [...TEXT],
  },
  {
    id: "claude-sonnet-4",
    name: "Claude Sonnet 4",
    kind: "external",
    family: "claude",
    purpose: "Balanced reasoning and code",
    description: "Anthropic's balanced model: careful reasoning, strong code and writing.",
    backends: [{ provider: ANTHROPIC, model: "claude-sonnet-4-0" }],
    systemPrompt: "",
    temperature: 0.7,
    maxOutputTokens: 4096,
    contextWindow: 200_000,
    price: { input_per_1k: 0.3, output_per_1k: 1.5 },
    capabilities: [...TEXT],
  },
  {
    id: "claude-opus-4.1",
    name: "Claude Opus 4.1",
    kind: "external",
    family: "claude",
    purpose: "Most capable Claude",
    description: "Anthropic's most capable model for hard, long tasks; the most expensive here.",
    backends: [{ provider: ANTHROPIC, model: "claude-opus-4-1" }],
    systemPrompt: "",
    temperature: 0.7,
    maxOutputTokens: 4096,
    contextWindow: 200_000,
    price: { input_per_1k: 1.5, output_per_1k: 7.5 },
    capabilities: [...TEXT],
  },
  {
    id: "claude-haiku-4.5",
    name: "Claude Haiku 4.5",
    kind: "external",
    family: "claude",
    purpose: "Fast Claude",
    description: "Anthropic's fast, affordable model.",
    backends: [{ provider: ANTHROPIC, model: "claude-haiku-4-5" }],
    systemPrompt: "",
    temperature: 0.7,
    maxOutputTokens: 4096,
    contextWindow: 200_000,
    price: { input_per_1k: 0.1, output_per_1k: 0.5 },
    capabilities: [...TEXT],
  },
  {
    id: "gemini-2.5-pro",
    name: "Gemini 2.5 Pro",
    kind: "external",
    family: "gemini",
    purpose: "Long-context reasoning",
    description: "Google's most capable Gemini, with a million-token context window.",
    backends: [{ provider: GOOGLE, model: "gemini-2.5-pro" }],
    systemPrompt: "",
    temperature: 0.7,
    maxOutputTokens: 4096,
    contextWindow: 1_048_576,
    price: { input_per_1k: 0.125, output_per_1k: 1 },
    capabilities: [...TEXT],
  },
  {
    id: "gemini-2.5-flash",
    name: "Gemini 2.5 Flash",
    kind: "external",
    family: "gemini",
    purpose: "Fast long-context",
    description: "Google's fast, low-cost Gemini.",
    backends: [{ provider: GOOGLE, model: "gemini-2.5-flash" }],
    systemPrompt: "",
    temperature: 0.7,
    maxOutputTokens: 4096,
    contextWindow: 1_048_576,
    price: { input_per_1k: 0.03, output_per_1k: 0.25 },
    capabilities: [...TEXT],
  },
];

const EXTERNAL_TEXT_MODELS = [
  "gpt-4.1",
  "gpt-4.1-mini",
  "gpt-4o",
  "claude-sonnet-4",
  "claude-opus-4.1",
  "claude-haiku-4.5",
  "gemini-2.5-pro",
  "gemini-2.5-flash",
];

export const DEFAULT_ROLES: readonly CatalogueRole[] = [
  {
    id: "strategist",
    name: "Strategist",
    description:
      "Turns the request into a plan: the goal, ordered steps, risks and what done means.",
    systemPrompt:
      "You are the Strategist in a team of AI agents (Strategist, Coder, Designer, Critic). Turn your task into a short plan: the goal in one sentence, 3 to 6 concrete numbered steps in order, the main risks, and how to tell the work is done. Be specific to the request. Do not write the code or the design yourself; other agents do that.",
    defaultModel: "coreason",
    suitableModels: ["coreason", "codepth", "cologic", "coquick", ...EXTERNAL_TEXT_MODELS],
  },
  {
    id: "coder",
    name: "Coder",
    description: "Writes working code for its sub-task, with how to run and test it.",
    systemPrompt:
      "You are the Coder in a team of AI agents. Write working, idiomatic code for your task. Start with one or two sentences on the approach, put all code in fenced code blocks with a language tag, handle errors and edge cases, and finish with how to run or test it. No pseudo-code or gaps to fill in later.",
    defaultModel: "cologic",
    suitableModels: ["cologic", "coreason", "codepth", "coquick", ...EXTERNAL_TEXT_MODELS],
  },
  {
    id: "designer",
    name: "Designer",
    description:
      "Writes the design and UX specification: layout, components, states, accessibility.",
    systemPrompt:
      "You are the Designer in a team of AI agents. Write a concise design and UX specification for your task: who uses it and for what, layout, key components and their states (empty, loading, error), the interaction flow, visual style (colour, type, spacing) and accessibility (labels, focus order, contrast). Use Markdown headings and bullet lists.",
    defaultModel: "codepth",
    suitableModels: [
      "codepth",
      "coreason",
      "cochat",
      "covision",
      "coquick",
      ...EXTERNAL_TEXT_MODELS,
    ],
  },
  {
    id: "critic",
    name: "Critic",
    description:
      "Reviews the drafts, lists strengths and concrete fixes, and scores them out of 10.",
    systemPrompt:
      "You are the Critic in a team of AI agents. Review the drafts against the user's request for correctness, completeness, clarity and risk. List the strengths, then the concrete issues, each with a fix. End with exactly two lines: 'Score: N/10' (N an integer) and 'Verdict: approve' or 'Verdict: revise'. Approve only at 7 or above.",
    defaultModel: "coreason",
    suitableModels: ["coreason", "codepth", "cologic", "coquick", ...EXTERNAL_TEXT_MODELS],
  },
];

/** CoChat's own list (the product overview); the first entry is its default. */
export const DEFAULT_COCHAT_MODELS: readonly string[] = [
  "cochat",
  "coquick",
  "coreason",
  "codepth",
  "cologic",
  "covision",
  ...EXTERNAL_TEXT_MODELS,
];

/** Turns a name a local server uses (`meta-llama/Llama-3.1-8B`) into a catalogue id. */
export function localModelId(name: string): string {
  return `local:${name
    .toLowerCase()
    .replace(/[^a-z0-9.:_-]+/g, "-")
    .slice(0, 56)}`;
}

/**
 * An image model served by the operator's OpenAI-compatible images endpoint
 * (OPENAI_COMPATIBLE_IMAGE_MODELS, e.g. a local Stable Diffusion server; decision 064).
 */
export function localImageModel(name: string): CatalogueModel {
  return {
    ...localModel(name),
    purpose: "Self-hosted image model",
    description: `${name}, an image model served by this installation's OpenAI-compatible server.`,
    maxOutputTokens: 256,
    // The operator pays for the hardware; MODELS_CONFIG_FILE can set a price per image.
    price: { input_per_1k: 0, output_per_1k: 0, per_image: 0 },
    capabilities: ["image"],
  };
}

/** A model served by the operator's OpenAI-compatible server (OPENAI_COMPATIBLE_MODELS). */
export function localModel(name: string): CatalogueModel {
  return {
    id: localModelId(name),
    name: `${name} (local)`,
    kind: "local",
    family: "local",
    purpose: "Self-hosted model",
    description: `${name}, served by this installation's OpenAI-compatible server.`,
    backends: [{ provider: "openai-compatible", model: name }],
    systemPrompt: "",
    temperature: 0.7,
    maxOutputTokens: 2048,
    contextWindow: 8192,
    // The operator pays for the hardware, not per token; MODELS_CONFIG_FILE can set a price.
    price: { input_per_1k: 0, output_per_1k: 0 },
    capabilities: [...TEXT],
  };
}

/**
 * A model of a local server found on a loopback port (decision 056): "Local: llama3.1
 * (Ollama)", free like every local model, and suited to every role.
 */
export function discoveredLocalModel(name: string, server: string): CatalogueModel {
  const label = `Local: ${name} (${server})`;
  return {
    ...localModel(name),
    name:
      label.length <= 60 ? label : `Local: ${name.slice(0, 60 - 11 - server.length)}… (${server})`,
    purpose: `Runs on this machine (${server})`.slice(0, 80),
    description: `${name}, served by ${server} on this machine: found at start, no key needed.`,
  };
}

/**
 * Embedding models (documents' hybrid search), priced like the chat models: OpenAI's list
 * prices are $0.02 (small) and $0.13 (large) per million input tokens, that is 0.002 and
 * 0.013 US cents — credits — per 1,000 tokens.
 */
export const DEFAULT_EMBEDDING_MODELS: readonly CatalogueEmbeddingModel[] = [
  {
    id: "text-embedding-3-small",
    name: "OpenAI text-embedding-3-small",
    provider: OPENAI,
    model: "text-embedding-3-small",
    dimensions: 1536,
    price: { input_per_1k: 0.002 },
  },
  {
    id: "text-embedding-3-large",
    name: "OpenAI text-embedding-3-large",
    provider: OPENAI,
    model: "text-embedding-3-large",
    dimensions: 3072,
    price: { input_per_1k: 0.013 },
  },
];

/** An embedding model served by the operator's server (OPENAI_COMPATIBLE_EMBEDDING_MODELS). */
export function localEmbeddingModel(name: string): CatalogueEmbeddingModel {
  return {
    id: localModelId(name),
    name: `${name} (local)`.slice(0, 60),
    provider: "openai-compatible",
    model: name,
    dimensions: null,
    // The operator pays for the hardware, not per token; MODELS_CONFIG_FILE can set a price.
    price: { input_per_1k: 0 },
  };
}
