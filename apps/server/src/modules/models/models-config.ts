import type { ModelsConfigFile } from "./catalogue-schema";

/** The models part of AppConfig, parsed from the environment by config.ts. */
export interface ModelsConfig {
  readonly openai: {
    readonly apiKey: string | undefined;
    readonly baseUrl: string;
    /** `responses` (the SDK's default) or `chat` (chat completions, for proxies that lack it). */
    readonly api: "responses" | "chat";
  };
  readonly anthropic: { readonly apiKey: string | undefined; readonly baseUrl: string };
  readonly google: { readonly apiKey: string | undefined; readonly baseUrl: string };
  readonly openaiCompatible: {
    readonly baseUrl: string | undefined;
    readonly apiKey: string | undefined;
    readonly models: readonly string[];
    /** OPENAI_COMPATIBLE_EMBEDDING_MODELS (and a legacy `openai-compatible:<name>` EMBEDDING_MODEL). */
    readonly embeddingModels?: readonly string[];
    /** OPENAI_COMPATIBLE_IMAGE_MODELS: its images endpoint's models (decision 064). */
    readonly imageModels?: readonly string[];
  };
  /** MODELS_CONFIG_FILE, read and checked at start-up. */
  readonly catalogueFile: ModelsConfigFile | undefined;
  /** Bound on one request to one provider, streaming included. */
  readonly callTimeoutMs: number;
  /** Tries per provider on 429/5xx/network errors before falling back to the next. */
  readonly maxAttempts: number;
  readonly retryBaseDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call falls back at once. */
  readonly retryMaxDelayMs: number;
  /** Pace of the built-in simulator; 0 streams as fast as possible. */
  readonly simulatorTokensPerSecond: number;
  /**
   * Local model servers looked for on loopback (decision 056); absent or `enabled: false`
   * when OPENAI_COMPATIBLE_BASE_URL is set or LOCAL_MODEL_DISCOVERY=0.
   */
  readonly localDiscovery?: {
    readonly enabled: boolean;
    readonly ports: readonly { readonly port: number; readonly name: string | undefined }[];
    readonly timeoutMs: number;
  };
  /** SIMULATOR_CHARGES: simulated answers are charged at catalogue prices (default: free). */
  readonly simulatorCharges?: boolean;
}
