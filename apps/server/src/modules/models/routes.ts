import {
  AGENT_ROLES,
  MODEL_ERROR_CODES,
  type TAgentRole,
  ZAgentRolesResponse,
  ZAvailableModelsQuery,
  ZAvailableModelsResponse,
  ZCochatModelsResponse,
  ZEmbeddingModelsResponse,
  ZLocalModelServersResponse,
  ZModelResponse,
  ZModelsByRoleResponse,
  ZModelsHealthResponse,
  ZModelsResponse,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { currentPrincipal, type Principal, requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { checkModelHealth } from "./check-model-health";
import { localModelId } from "./default-catalogue";
import { listEmbeddingModels } from "./embedding-models";
import {
  describeModel,
  describeRole,
  listAgentRoles,
  listCochatModels,
  listModels,
} from "./list-models";
import type { UserProviderKeys } from "./providers";

const tags = ["models"];

function parseRole(value: string): TAgentRole {
  const role = value.toLowerCase();
  if (!(AGENT_ROLES as readonly string[]).includes(role)) {
    throw new AppError(
      MODEL_ERROR_CODES.unknownRole,
      400,
      `There is no agent role "${value}". Choose one of: ${AGENT_ROLES.join(", ")}.`,
    );
  }
  return role as TAgentRole;
}

export interface ModelsRoutesOptions {
  /**
   * The user's own provider keys. Passed in at registration: the users module owns the keys
   * and already depends on this one for their shape, so importing it back would be a loop.
   */
  loadUserKeys: (principal: Principal) => Promise<UserProviderKeys>;
}

/**
 * The catalogue is public information (names, purposes, prices), so these routes need no
 * sign-in. Signed in, each model's `source` and `simulated` count the user's own keys, so the
 * badge tells what will really answer (decision 029); anonymous, the server's keys only.
 */
export async function modelsRoutes(app: FastifyInstance, options: ModelsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const gateway = app.models;

  /** The caller's keys; a signed-in answer is theirs alone and is not cached. */
  async function callerKeys(request: FastifyRequest, reply: FastifyReply) {
    const principal = await currentPrincipal(request);
    if (!principal) return {};
    reply.header("cache-control", "private, no-store");
    return options.loadUserKeys(principal);
  }
  if (app.config.env === "production" && checkModelHealth(gateway).all_simulated) {
    app.log.warn(
      "No model provider key is set: every model answers from the built-in simulator (labelled Simulated)",
    );
  }

  r.get(
    "/api/ai/models",
    {
      schema: {
        tags,
        summary: "Every model: native Co* models, then GPT, Claude, Gemini and local ones",
        response: { 200: ZModelsResponse },
      },
    },
    async (request, reply) => ({
      models: listModels(gateway, { userKeys: await callerKeys(request, reply) }),
    }),
  );

  r.get(
    "/api/ai/agent-roles",
    {
      schema: {
        tags,
        summary: "The agent roles with their default and suitable models",
        response: { 200: ZAgentRolesResponse },
      },
    },
    async () => ({ roles: listAgentRoles(gateway) }),
  );

  r.get(
    "/api/models/available",
    {
      schema: {
        tags,
        summary:
          "Models to choose from, optionally for one role; includeExternal=false for native only",
        querystring: ZAvailableModelsQuery,
        response: { 200: ZAvailableModelsResponse },
      },
    },
    async (request, reply) => {
      const role = request.query.role ? parseRole(request.query.role) : undefined;
      return {
        models: listModels(gateway, {
          ...(role ? { role } : {}),
          includeExternal: request.query.includeExternal,
          userKeys: await callerKeys(request, reply),
        }),
        default_model: role ? (gateway.catalogue.getRole(role)?.defaultModel ?? null) : null,
      };
    },
  );

  r.get(
    "/api/models/by-role/:role",
    {
      schema: {
        tags,
        summary:
          "One role with its default model and the models that suit it; 400 for an unknown role",
        params: z.object({ role: z.string() }),
        response: { 200: ZModelsByRoleResponse },
      },
    },
    async (request, reply) => {
      const role = gateway.catalogue.getRole(parseRole(request.params.role));
      if (!role) throw new AppError(MODEL_ERROR_CODES.unknownRole, 400, "Unknown agent role.");
      return {
        role: describeRole(role),
        default_model: role.defaultModel,
        models: listModels(gateway, { role: role.id, userKeys: await callerKeys(request, reply) }),
      };
    },
  );

  r.get(
    "/api/models/health",
    {
      schema: {
        tags,
        summary: "Per provider: configured or simulated, last call outcome, recent latency",
        response: { 200: ZModelsHealthResponse },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return checkModelHealth(gateway);
    },
  );

  r.get(
    "/api/models/embeddings",
    {
      schema: {
        tags,
        summary:
          "Embedding models (documents' hybrid search): usable now or not, and the one documents use",
        response: { 200: ZEmbeddingModelsResponse },
      },
    },
    async (request, reply) => {
      await requireUser(request);
      reply.header("cache-control", "private, no-store");
      return {
        models: listEmbeddingModels(gateway.catalogue, app.config.models),
        documents_model: app.config.documents.embeddingModel ?? null,
      };
    },
  );

  /** What Settings shows of the local servers, each model with its catalogue id and name. */
  function localServersAnswer() {
    const servers = app.localModelServers;
    const discovery = servers.enabled
      ? "on"
      : app.config.models.openaiCompatible.baseUrl
        ? "configured"
        : "off";
    const lookedAt = servers.lookedAt();
    return {
      discovery,
      servers: servers.servers().map((server) => ({
        name: server.name,
        port: server.port,
        models: server.models.flatMap((name) => {
          const model = gateway.catalogue.getModel(localModelId(name));
          return model ? [{ id: model.id, name: model.name }] : [];
        }),
      })),
      looked_at: lookedAt ? lookedAt.toISOString() : null,
    } as const;
  }

  r.get(
    "/api/models/local-servers",
    {
      schema: {
        tags,
        summary: "Local model servers (Ollama, LM Studio, llama.cpp, vLLM) found on this machine",
        response: { 200: ZLocalModelServersResponse },
      },
    },
    async (request, reply) => {
      await requireUser(request);
      reply.header("cache-control", "private, no-store");
      return localServersAnswer();
    },
  );

  r.post(
    "/api/models/local-servers/look-again",
    {
      schema: {
        tags,
        summary: "Probes the local model servers' ports again; their models join the catalogue",
        response: { 200: ZLocalModelServersResponse },
      },
    },
    async (request, reply) => {
      await requireUser(request);
      reply.header("cache-control", "private, no-store");
      await app.localModelServers.lookAgain();
      return localServersAnswer();
    },
  );

  r.get(
    "/api/models/:id",
    {
      schema: {
        tags,
        summary: "One model; 404 when there is no such model",
        params: z.object({ id: z.string() }),
        response: { 200: ZModelResponse },
      },
    },
    async (request, reply) => {
      const model = gateway.catalogue.getModel(request.params.id);
      if (!model) {
        throw new AppError(
          MODEL_ERROR_CODES.modelNotFound,
          404,
          `There is no model "${request.params.id}". See GET /api/ai/models for the list.`,
        );
      }
      return { model: describeModel(gateway, model, await callerKeys(request, reply)) };
    },
  );

  r.get(
    "/api/cochat/models",
    {
      schema: {
        tags: ["cochat"],
        summary:
          "CoChat's own model list; the first is the default. Signed in, `simulated` counts the user's own keys",
        response: { 200: ZCochatModelsResponse },
      },
    },
    async (request, reply) => ({
      data: listCochatModels(gateway, await callerKeys(request, reply)),
    }),
  );
}
