import type { ModelsConfig } from "../../src/modules/models/models-config";

/**
 * The model gateway's settings without any provider key (every call goes to the simulator,
 * which streams at once); the providers' addresses lead nowhere. `over` changes what a test
 * is about.
 */
export function simulatorOnlyConfig(over: Partial<ModelsConfig> = {}): ModelsConfig {
  return {
    openai: { apiKey: undefined, baseUrl: "http://127.0.0.1:9/v1", api: "responses" },
    anthropic: { apiKey: undefined, baseUrl: "http://127.0.0.1:9/v1" },
    google: { apiKey: undefined, baseUrl: "http://127.0.0.1:9/v1beta" },
    openaiCompatible: { baseUrl: undefined, apiKey: undefined, models: [] },
    catalogueFile: undefined,
    callTimeoutMs: 120_000,
    maxAttempts: 3,
    retryBaseDelayMs: 10,
    retryMaxDelayMs: 1000,
    simulatorTokensPerSecond: 0,
    simulatorCharges: true,
    ...over,
  };
}
