import { APICallError } from "@ai-sdk/provider";
import {
  API_KEY_MESSAGES,
  keyRefusedByProviderMessage,
  PROVIDER_NAMES,
  type TApiKeyRequest,
  type TApiKeyTestResult,
  type TProviderId,
  type TTestApiKeyResponse,
} from "@cohort/contracts";
import { type SsrfGuard, UrlNotAllowedError } from "../../platform/ssrf";
import { loadAiSdk } from "../models/ai-sdk";
import type { ModelGateway } from "../models/gateway";

/**
 * POST /api/users/test-api-key: one cheap, real call with the key, through the same SDK the
 * calls will use (a 16-token answer from the provider's cheapest catalogue model; for an
 * OpenAI-compatible server, which models it has is unknown, so its model list). Whatever
 * happens, the answer is a verdict — refused, unreachable, rate limited or valid — never a
 * 5xx: a bad key is not a server error. The key's format was checked before (contracts).
 */

export const TEST_KEY_TIMEOUT_MS = 10_000;

export interface TestApiKeyDeps {
  models: Pick<ModelGateway, "catalogue" | "providers">;
  ssrf: Pick<SsrfGuard, "fetch" | "checkBaseUrl">;
  log?: { warn(details: object, message: string): void };
  timeoutMs?: number;
}

type Verdict = Omit<TTestApiKeyResponse, "valid" | "tested_at">;

/** The cheapest catalogue text model the provider serves: what a test call costs the user. */
export function testModelFor(
  models: TestApiKeyDeps["models"],
  provider: TProviderId,
): string | undefined {
  // Image models (priced per image) cannot answer a 16-token text request.
  const textModels = models.catalogue.models.filter((model) => model.price.per_image === undefined);
  const candidates = textModels.flatMap((model) =>
    model.backends
      .filter((backend) => backend.provider === provider)
      .map((backend) => ({
        name: backend.model,
        price: model.price.input_per_1k + model.price.output_per_1k,
      })),
  );
  candidates.sort((a, b) => a.price - b.price);
  return candidates[0]?.name;
}

class TestTimeout extends Error {}

export async function testApiKey(
  deps: TestApiKeyDeps,
  input: TApiKeyRequest,
): Promise<TTestApiKeyResponse> {
  const verdict = await findVerdict(deps, input);
  return { valid: verdict.result === "valid", ...verdict, tested_at: new Date().toISOString() };
}

async function findVerdict(deps: TestApiKeyDeps, input: TApiKeyRequest): Promise<Verdict> {
  const timeoutMs = deps.timeoutMs ?? TEST_KEY_TIMEOUT_MS;
  const name = PROVIDER_NAMES[input.provider];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new TestTimeout()), timeoutMs);
  try {
    if (input.provider === "openai-compatible") {
      return await testCompatibleServer(deps, input, controller.signal);
    }
    const modelName = testModelFor(deps.models, input.provider);
    const model = modelName
      ? deps.models.providers.languageModel(input.provider, modelName, { apiKey: input.apiKey })
      : undefined;
    if (!model) {
      return { result: "failed", message: `Cohort has no ${name} model to test the key with.` };
    }
    const { generateText } = await loadAiSdk();
    await generateText({
      model,
      prompt: "Reply with the word OK.",
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: controller.signal,
    });
    return { result: "valid", message: API_KEY_MESSAGES.valid };
  } catch (error) {
    if (controller.signal.aborted) {
      return {
        result: "unreachable",
        message: `${name} did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}. Try again later.`,
      };
    }
    return verdictOf(deps, input.provider, error);
  } finally {
    clearTimeout(timer);
  }
}

async function testCompatibleServer(
  deps: TestApiKeyDeps,
  input: TApiKeyRequest,
  signal: AbortSignal,
): Promise<Verdict> {
  // The same check as saving the key: a base URL the key could not be stored with is not
  // called either (a ?query would otherwise ride along on every path built on it).
  const { url } = await deps.ssrf.checkBaseUrl(input.baseURL ?? "");
  const base = url.toString().replace(/\/+$/, "");
  const response = await deps.ssrf.fetch(`${base}/models`, {
    headers: { authorization: `Bearer ${input.apiKey}`, accept: "application/json" },
    signal,
  });
  const body = await response.text();
  if (response.ok) {
    let count: number | undefined;
    try {
      const data = (JSON.parse(body) as { data?: unknown }).data;
      count = Array.isArray(data) ? data.length : undefined;
    } catch {
      count = undefined;
    }
    if (count === undefined) {
      return {
        result: "failed",
        message:
          "The server answered, but not like an OpenAI-compatible API. Check that the base URL ends in /v1.",
      };
    }
    return {
      result: "valid",
      message: `${API_KEY_MESSAGES.valid} The server offers ${count} model${count === 1 ? "" : "s"}.`,
    };
  }
  return statusVerdict("openai-compatible", response.status);
}

function statusVerdict(provider: TProviderId, status: number): Verdict {
  const name = PROVIDER_NAMES[provider];
  const verdict = (result: TApiKeyTestResult, message: string): Verdict => ({ result, message });
  if (status === 401 || status === 403) {
    return verdict("refused", keyRefusedByProviderMessage(provider, status));
  }
  if (status === 429) {
    return verdict(
      "rate_limited",
      `${name} accepted the key but refused the call: rate limit or quota reached (429). Try again later.`,
    );
  }
  if (status >= 500) {
    return verdict("unreachable", `${name} had a server error (${status}). Try again later.`);
  }
  if (status === 404 && provider === "openai-compatible") {
    return verdict(
      "failed",
      "No OpenAI-compatible API at this address (404). Check that the base URL ends in /v1.",
    );
  }
  return verdict("failed", `${name} refused the test call (${status}).`);
}

function verdictOf(deps: TestApiKeyDeps, provider: TProviderId, error: unknown): Verdict {
  const name = PROVIDER_NAMES[provider];
  if (error instanceof UrlNotAllowedError) return { result: "failed", message: error.message };
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    return statusVerdict(provider, error.statusCode);
  }
  // No status: no connection (DNS, refused, TLS). The provider's words are not repeated: they
  // may quote parts of the key.
  deps.log?.warn(
    { provider, err: error instanceof Error ? error.message : String(error) },
    "API key test could not reach the provider",
  );
  return {
    result: "unreachable",
    message: `Could not reach ${name}. Check the address and your network, then try again.`,
  };
}
