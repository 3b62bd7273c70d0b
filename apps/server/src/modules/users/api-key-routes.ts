import {
  API_KEY_MESSAGES,
  ERROR_CODES,
  PROVIDER_NAMES,
  ZApiKeyParams,
  ZApiKeyResponse,
  ZApiKeysResponse,
  ZSaveApiKeyRequest,
  ZSuccessResponse,
  ZTestApiKeyRequest,
  ZTestApiKeyResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { apiKeyDeps } from "./api-key-deps";
import { deleteApiKey } from "./delete-api-key";
import { listApiKeys } from "./list-api-keys";
import { retestApiKey } from "./retest-api-key";
import { saveApiKey, testBeforeSaving } from "./save-api-key";
import { type TestApiKeyDeps, testApiKey } from "./test-api-key";

const tags = ["users"];

/** Each test is a real call to a provider: a few a minute are plenty for a person. */
const TESTS_PER_MINUTE = 20;

/** Bring your own key: PUT/GET/DELETE /api/users/api-keys and POST /api/users/test-api-key. */
export async function apiKeyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = apiKeyDeps(app);
  const testDeps = (log: TestApiKeyDeps["log"]): TestApiKeyDeps => ({
    models: app.models,
    ssrf: app.ssrf,
    ...(log ? { log } : {}),
  });

  r.get(
    "/api/users/api-keys",
    {
      schema: {
        tags,
        summary: "The user's stored provider keys: provider, last four characters, base URL",
        response: { 200: ZApiKeysResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return { keys: await listApiKeys(app.db, user.id) };
    },
  );

  r.put(
    "/api/users/api-keys",
    {
      schema: {
        tags,
        summary:
          "Store (or replace) the user's key for a provider, encrypted; with `test`, tested first (422 when it fails, unless `saveIfTestFails`)",
        body: ZSaveApiKeyRequest,
        response: { 200: ZApiKeyResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { test: _test, saveIfTestFails: _confirmed, ...input } = request.body;
      const verdict = await testBeforeSaving(deps, testDeps(request.log), request.body);
      const key = await saveApiKey(deps, user.id, input, verdict);
      request.log.info({ userId: user.id, provider: key.provider }, "provider key stored");
      return { key };
    },
  );

  r.delete(
    "/api/users/api-keys/:provider",
    {
      schema: {
        tags,
        summary: "Remove the user's key for a provider",
        params: ZApiKeyParams,
        response: { 200: ZSuccessResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { provider } = request.params;
      if (!(await deleteApiKey(app.db, user.id, provider))) {
        throw new AppError(
          ERROR_CODES.notFound,
          404,
          `You have no ${PROVIDER_NAMES[provider]} key stored.`,
        );
      }
      request.log.info({ userId: user.id, provider }, "provider key removed");
      return { success: true as const, message: API_KEY_MESSAGES.removed };
    },
  );

  r.post(
    "/api/users/test-api-key",
    {
      config: { rateLimit: { max: TESTS_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        tags,
        summary:
          "Try a key with one cheap real call; answers {valid, message}, never a 5xx for a bad key",
        body: ZTestApiKeyRequest,
        response: { 200: ZTestApiKeyResponse },
      },
    },
    async (request) => {
      await requireUser(request);
      return testApiKey(testDeps(request.log), request.body);
    },
  );

  r.post(
    "/api/users/api-keys/:provider/test",
    {
      config: { rateLimit: { max: TESTS_PER_MINUTE, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: "Test the stored key again; its verdict and time are kept with it",
        params: ZApiKeyParams,
        response: { 200: ZApiKeyResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const { provider } = request.params;
      const key = await retestApiKey(deps, testDeps(request.log), user.id, provider);
      if (!key) {
        throw new AppError(
          ERROR_CODES.notFound,
          404,
          `You have no ${PROVIDER_NAMES[provider]} key stored.`,
        );
      }
      reply.header("cache-control", "no-store");
      return { key };
    },
  );
}
