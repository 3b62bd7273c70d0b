import {
  API_KEY_MESSAGES,
  ERROR_CODES,
  PROVIDER_NAMES,
  ZApiKeyParams,
  ZApiKeyRequest,
  ZApiKeyResponse,
  ZApiKeysResponse,
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
import { saveApiKey } from "./save-api-key";
import { testApiKey } from "./test-api-key";

const tags = ["users"];

/** Each test is a real call to a provider: a few a minute are plenty for a person. */
const TESTS_PER_MINUTE = 20;

/** Bring your own key: PUT/GET/DELETE /api/users/api-keys and POST /api/users/test-api-key. */
export async function apiKeyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = apiKeyDeps(app);

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
          "Store (or replace) the user's key for a provider, encrypted; calls on it cost no credits",
        body: ZApiKeyRequest,
        response: { 200: ZApiKeyResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const key = await saveApiKey(deps, user.id, request.body);
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
      return testApiKey({ models: app.models, ssrf: app.ssrf, log: request.log }, request.body);
    },
  );
}
