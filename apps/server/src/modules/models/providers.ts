import type { ImageModelV3, LanguageModelV3 } from "@ai-sdk/provider";
import { makesImages, type TModelSource, type TProviderId } from "@cohort/contracts";
import type { Catalogue } from "./catalogue";
import type { CatalogueModel } from "./catalogue-schema";
import type { ModelsConfig } from "./models-config";

/**
 * The one seam between Cohort and model providers (after vercel/ai-chatbot's
 * lib/ai/providers.ts): every provider client is made here, from config or from a user's
 * own key, and nothing else imports a provider package.
 */

/** A key a user brought for one provider (stored and decrypted by the users module). */
export interface ProviderCredential {
  apiKey: string;
  /**
   * Only for `openai-compatible`: the user's own server. The caller must have checked it
   * against SSRF; the server's hosted keys are never sent to it.
   */
  baseURL?: string;
  /**
   * Required with `baseURL`: the SSRF guard's fetch (platform/ssrf.ts), which checks every
   * connection and redirect. Without it a user's base URL is never called.
   */
  fetch?: typeof globalThis.fetch;
}

export type UserProviderKeys = Partial<Record<TProviderId, ProviderCredential>>;

export type ProviderSettings = Pick<
  ModelsConfig,
  "openai" | "anthropic" | "google" | "openaiCompatible"
>;

export interface Providers {
  /** True when the server itself can call the provider (a hosted key or a local server). */
  isHosted(provider: TProviderId): boolean;
  /** A model on the hosted key, or on `credential` when given; undefined when neither exists. */
  languageModel(
    provider: TProviderId,
    modelName: string,
    credential?: ProviderCredential,
  ): LanguageModelV3 | undefined;
  /**
   * An image model (decision 064) on the hosted key, or on `credential` when given; undefined
   * when neither exists or the provider makes no images (Anthropic).
   */
  imageModel(
    provider: TProviderId,
    modelName: string,
    credential?: ProviderCredential,
  ): ImageModelV3 | undefined;
}

type ModelFactory = (modelName: string) => LanguageModelV3;
type ImageFactory = (modelName: string) => ImageModelV3;

/** An image model whose SDK package loads on its first call, as `lazyModel` does. */
function lazyImageModel(
  provider: TProviderId,
  modelId: string,
  load: () => Promise<ImageModelV3>,
): ImageModelV3 {
  const model = once(load);
  return {
    specificationVersion: "v3",
    provider,
    modelId,
    // One image per call (decision 064): the limit of the provider's model is never reached.
    maxImagesPerCall: 1,
    doGenerate: async (options) => (await model()).doGenerate(options),
  };
}

/** Runs `load` once, on first use, and shares its promise. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

/**
 * Each model made once and shared by every call: making one builds the SDK model, its zod
 * schemas included, which took ~0.5 ms before each call's request could go out.
 */
function madeOnce<M>(factory: (name: string) => M): (name: string) => M {
  const models = new Map<string, M>();
  return (name) => {
    let model = models.get(name);
    if (!model) {
      model = factory(name);
      models.set(name, model);
    }
    return model;
  };
}

/**
 * A provider's model whose SDK package loads on its first call, not at start-up: a server
 * without hosted keys, or with keys nobody has used since it started, never pays for the
 * four provider packages (they and `ai` were about a quarter of a restart's CPU, decision
 * 020). The call itself is the provider package's own, unchanged.
 */
function lazyModel(
  provider: TProviderId,
  modelId: string,
  load: () => Promise<LanguageModelV3>,
): LanguageModelV3 {
  const model = once(load);
  return {
    specificationVersion: "v3",
    provider,
    modelId,
    get supportedUrls() {
      return model().then((m) => m.supportedUrls);
    },
    doGenerate: async (options) => (await model()).doGenerate(options),
    doStream: async (options) => (await model()).doStream(options),
  };
}

/** The name the OpenAI-compatible provider is created with (its provider options key). */
const COMPATIBLE_NAME = "openai-compatible";

/** The local servers found on loopback ports (local-model-servers.ts), as providers need them. */
export interface FoundLocalServers {
  baseUrlOf(model: string): string | undefined;
  servers(): readonly unknown[];
}

export function createProviders(settings: ProviderSettings, found?: FoundLocalServers): Providers {
  // Base URLs and keys are always passed explicitly, so no SDK falls back to reading
  // process.env itself (config.ts is the only reader of the environment).
  const openaiFactory = (apiKey: string): ModelFactory => {
    const baseURL = settings.openai.baseUrl;
    const sdk = once(() => import("@ai-sdk/openai"));
    const provider = once(async () => (await sdk()).createOpenAI({ apiKey, baseURL }));
    const responsesModel = async (name: string) => {
      const [{ VERSION }, { withLightTextStream }] = await Promise.all([
        sdk(),
        import("./openai-responses-stream"),
      ]);
      // Text streams go through our own light reader: the SDK's per-chunk stages were the
      // biggest CPU cost of a run. Every other call is the SDK model's own.
      return withLightTextStream((await provider()).responses(name), {
        baseURL,
        apiKey,
        userAgent: `ai-sdk/openai/${VERSION}`,
      });
    };
    return (name) =>
      lazyModel("openai", name, async () =>
        settings.openai.api === "chat" ? (await provider()).chat(name) : responsesModel(name),
      );
  };
  const openaiImages = (apiKey: string): ImageFactory => {
    const provider = once(async () =>
      (await import("@ai-sdk/openai")).createOpenAI({ apiKey, baseURL: settings.openai.baseUrl }),
    );
    return (name) => lazyImageModel("openai", name, async () => (await provider()).image(name));
  };
  const googleImages = (apiKey: string): ImageFactory => {
    const provider = once(async () =>
      (await import("@ai-sdk/google")).createGoogleGenerativeAI({
        apiKey,
        baseURL: settings.google.baseUrl,
      }),
    );
    return (name) => lazyImageModel("google", name, async () => (await provider()).image(name));
  };
  const compatibleImages = (
    baseURL: string,
    apiKey: string | undefined,
    fetch?: typeof globalThis.fetch,
  ): ImageFactory => {
    const provider = once(async () =>
      (await import("@ai-sdk/openai-compatible")).createOpenAICompatible({
        name: COMPATIBLE_NAME,
        baseURL,
        ...(apiKey ? { apiKey } : {}),
        ...(fetch ? { fetch } : {}),
      }),
    );
    return (name) =>
      lazyImageModel("openai-compatible", name, async () => (await provider()).imageModel(name));
  };
  const anthropicFactory = (apiKey: string): ModelFactory => {
    const provider = once(async () =>
      (await import("@ai-sdk/anthropic")).createAnthropic({
        apiKey,
        baseURL: settings.anthropic.baseUrl,
      }),
    );
    return (name) => lazyModel("anthropic", name, async () => (await provider()).messages(name));
  };
  const googleFactory = (apiKey: string): ModelFactory => {
    const provider = once(async () =>
      (await import("@ai-sdk/google")).createGoogleGenerativeAI({
        apiKey,
        baseURL: settings.google.baseUrl,
      }),
    );
    return (name) => lazyModel("google", name, async () => (await provider()).chat(name));
  };
  const compatibleFactory = (
    baseURL: string,
    apiKey: string | undefined,
    fetch?: typeof globalThis.fetch,
  ): ModelFactory => {
    const sdk = once(() => import("@ai-sdk/openai-compatible"));
    const provider = once(async () =>
      (await sdk()).createOpenAICompatible({
        name: COMPATIBLE_NAME,
        baseURL,
        ...(apiKey ? { apiKey } : {}),
        ...(fetch ? { fetch } : {}),
        includeUsage: true,
        supportsStructuredOutputs: true,
      }),
    );
    // Text streams go through our own reader, as OpenAI's Responses do: the SDK's chain took
    // ~2–3 ms more to the first delta (decision 027). Every other call is the SDK model's own.
    const chatModel = async (name: string) => {
      const [{ VERSION }, { withLightChatStream }] = await Promise.all([
        sdk(),
        import("./openai-chat-stream"),
      ]);
      return withLightChatStream((await provider()).chatModel(name), {
        baseURL,
        apiKey,
        userAgent: `ai-sdk/openai-compatible/${VERSION}`,
        providerName: COMPATIBLE_NAME,
        ...(fetch ? { fetch } : {}),
      });
    };
    return (name) => lazyModel("openai-compatible", name, () => chatModel(name));
  };

  const compatible = settings.openaiCompatible;
  // The hosted keys' models are made once per name; a user's key makes its own per call.
  const hosted: Partial<Record<TProviderId, ModelFactory>> = {
    ...(settings.openai.apiKey ? { openai: madeOnce(openaiFactory(settings.openai.apiKey)) } : {}),
    ...(settings.anthropic.apiKey
      ? { anthropic: madeOnce(anthropicFactory(settings.anthropic.apiKey)) }
      : {}),
    ...(settings.google.apiKey ? { google: madeOnce(googleFactory(settings.google.apiKey)) } : {}),
    ...(compatible.baseUrl
      ? {
          "openai-compatible": madeOnce(compatibleFactory(compatible.baseUrl, compatible.apiKey)),
        }
      : {}),
  };
  const hostedImages: Partial<Record<TProviderId, ImageFactory>> = {
    ...(settings.openai.apiKey ? { openai: madeOnce(openaiImages(settings.openai.apiKey)) } : {}),
    ...(settings.google.apiKey ? { google: madeOnce(googleImages(settings.google.apiKey)) } : {}),
    ...(compatible.baseUrl
      ? { "openai-compatible": madeOnce(compatibleImages(compatible.baseUrl, compatible.apiKey)) }
      : {}),
  };
  function userImageFactory(
    provider: TProviderId,
    credential: ProviderCredential,
  ): ImageFactory | undefined {
    switch (provider) {
      case "openai":
        return openaiImages(credential.apiKey);
      case "google":
        return googleImages(credential.apiKey);
      case "anthropic":
        return undefined;
      case "openai-compatible":
        return credential.baseURL && credential.fetch
          ? compatibleImages(credential.baseURL, credential.apiKey, credential.fetch)
          : undefined;
    }
  }
  // Without OPENAI_COMPATIBLE_BASE_URL, local models go to the server found serving them
  // (decision 056): one client per server, each model made once per server.
  const foundFactories = new Map<string, ModelFactory>();
  const foundModel = (name: string): LanguageModelV3 | undefined => {
    const baseUrl = found?.baseUrlOf(name);
    if (!baseUrl) return undefined;
    let factory = foundFactories.get(baseUrl);
    if (!factory) {
      factory = madeOnce(compatibleFactory(baseUrl, undefined));
      foundFactories.set(baseUrl, factory);
    }
    return factory(name);
  };

  function userFactory(provider: TProviderId, credential: ProviderCredential) {
    switch (provider) {
      case "openai":
        return openaiFactory(credential.apiKey);
      case "anthropic":
        return anthropicFactory(credential.apiKey);
      case "google":
        return googleFactory(credential.apiKey);
      case "openai-compatible":
        return credential.baseURL && credential.fetch
          ? compatibleFactory(credential.baseURL, credential.apiKey, credential.fetch)
          : undefined;
    }
  }

  return {
    isHosted: (provider) =>
      hosted[provider] !== undefined ||
      (provider === "openai-compatible" && (found?.servers().length ?? 0) > 0),
    languageModel(provider, modelName, credential) {
      if (!credential && provider === "openai-compatible" && !hosted[provider]) {
        return foundModel(modelName);
      }
      const factory = credential ? userFactory(provider, credential) : hosted[provider];
      return factory?.(modelName);
    },
    imageModel(provider, modelName, credential) {
      const factory = credential ? userImageFactory(provider, credential) : hostedImages[provider];
      return factory?.(modelName);
    },
  };
}

export type KeySource = "hosted" | "user" | "simulator";

/** One place a call can go: a provider's model on a key, or the simulator. */
export interface ModelTarget {
  provider: TProviderId | "simulator";
  /** The provider's model name, or the catalogue id for the simulator. */
  providerModel: string;
  keySource: KeySource;
  languageModel: LanguageModelV3;
  /** For an image model (decision 064): what makes its images on this target. */
  imageModel?: ImageModelV3;
}

export interface ResolvedModel {
  model: CatalogueModel;
  /** In order: each is tried (with retries) before falling back to the next. */
  targets: ModelTarget[];
  /** No provider of the model has a key: the built-in simulator answers. */
  simulated: boolean;
  /** The provider that serves the model now (its first backing one when simulated). */
  provider: TProviderId;
  /** Some target runs on a hosted key, so the call may cost credits. */
  billable: boolean;
  /** What answers first: the badge the model lists show (decision 029). */
  source: TModelSource;
}

export interface ResolveDeps {
  catalogue: Catalogue;
  providers: Providers;
  simulator(modelId: string): LanguageModelV3;
  /** The simulator's image model (decision 064): a labelled vector picture. */
  simulatedImages?(modelId: string): ImageModelV3;
}

/**
 * Whether a user's own keys can serve the model (decision 029): a key serves the models of its
 * provider the user picks by name (GPT-*, Claude, Gemini, local models). Cohort's own Co*
 * models always run on Cohort's side — hosted keys, else the simulator — so a key a user saves
 * (or mistypes) never changes what they do.
 */
export function servesUserKeys(model: CatalogueModel): boolean {
  return model.kind !== "native";
}

function sourceOf(target: ModelTarget): TModelSource {
  if (target.keySource === "simulator") return "simulator";
  if (target.keySource === "user") return "user_key";
  return target.provider === "openai-compatible" ? "local_server" : "hosted_key";
}

/**
 * The fallback chain of a catalogue model: its backing providers in preference order, each on
 * the user's key when they brought one for it and the model takes users' keys (never the
 * hosted key in its place), else on the hosted key, skipping providers with neither. With none
 * left, the simulator answers: it is never a silent stand-in for a real provider that failed.
 */
export function resolveModel(
  deps: ResolveDeps,
  modelId: string,
  userKeys: UserProviderKeys = {},
): ResolvedModel | undefined {
  const model = deps.catalogue.getModel(modelId);
  if (!model) return undefined;
  const targets: ModelTarget[] = [];
  const keys = servesUserKeys(model) ? userKeys : {};
  const images = makesImages(model);
  for (const backend of model.backends) {
    const credential = keys[backend.provider];
    const languageModel = deps.providers.languageModel(backend.provider, backend.model, credential);
    if (!languageModel) continue;
    const imageModel = images
      ? deps.providers.imageModel(backend.provider, backend.model, credential)
      : undefined;
    if (images && !imageModel) continue;
    targets.push({
      provider: backend.provider,
      providerModel: backend.model,
      keySource: credential ? "user" : "hosted",
      languageModel,
      ...(imageModel ? { imageModel } : {}),
    });
  }
  const primary = (targets[0]?.provider ?? model.backends[0]?.provider) as TProviderId;
  if (targets.length === 0) {
    return {
      model,
      targets: [
        {
          provider: "simulator",
          providerModel: model.id,
          keySource: "simulator",
          languageModel: deps.simulator(model.id),
          ...(images && deps.simulatedImages ? { imageModel: deps.simulatedImages(model.id) } : {}),
        },
      ],
      simulated: true,
      provider: primary,
      billable: true,
      source: "simulator",
    };
  }
  return {
    model,
    targets,
    simulated: false,
    provider: primary,
    billable: targets.some((t) => t.keySource === "hosted"),
    source: sourceOf(targets[0] as ModelTarget),
  };
}
