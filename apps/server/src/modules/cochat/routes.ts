import {
  COCHAT_ERROR_CODES,
  COCHAT_MESSAGES,
  defaultCochatSessionId,
  ERROR_CODES,
  hasCoChatAccess,
  MODEL_ERROR_CODES,
  ZCochatChatRequest,
  ZCochatConversationResponse,
  ZCochatConversationsResponse,
  ZCochatHealthResponse,
  ZCochatSessionId,
  ZSuccessResponse,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { createRateBudget } from "../../platform/rate-limit";
import { openSse } from "../../platform/sse";
import { requireAgreement } from "../agreements/require-agreement";
import { apiKeyDeps } from "../users/api-key-deps";
import { loadSignedInUserKeys } from "../users/load-user-keys";
import { answerCochat } from "./answer-cochat";
import { checkCochatHealth } from "./check-cochat-health";
import { deleteConversation } from "./delete-conversation";
import { getConversation } from "./get-conversation";
import { listConversations } from "./list-conversations";
import { startTurn } from "./start-turn";

const tags = ["cochat"];

const ZConversationParams = z.object({ id: ZCochatSessionId });

/**
 * The roles: CoChat is for pro, pro+ and enterprise. Checked before the body, so a locked user
 * hears "locked" whatever they sent; the agreement comes first, as for every product call.
 */
async function requireCochatAccess(request: FastifyRequest): Promise<void> {
  const { user } = await requireAgreement(request);
  if (!hasCoChatAccess(user.subscription_tier)) {
    throw new AppError(ERROR_CODES.cochatLocked, 403, COCHAT_MESSAGES.locked, {
      tier: user.subscription_tier,
      upgrade_url: "/pricing",
    });
  }
}

const HOUR_MS = 60 * 60_000;

export async function cochatRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const gateway = app.models;
  const keyDeps = apiKeyDeps(app);
  // CoChat Unlimited costs no credits, so a fair-use budget per user keeps one account from
  // using a provider's whole quota: N messages an hour, counted from the window's first.
  const fairUse = createRateBudget(app, {
    name: "cochat-fair-use",
    max: app.config.cochat.messagesPerHour,
    windowMs: HOUR_MS,
  });

  r.post(
    "/api/cochat/chat",
    {
      preValidation: requireCochatAccess,
      schema: {
        tags,
        summary:
          "Chat with one model, streamed as Server-Sent Events (start, delta…, done | error); pro, pro+ and enterprise only",
        body: ZCochatChatRequest,
      },
    },
    async (request, reply) => {
      const principal = await requireUser(request);
      const { user } = principal;
      const body = request.body;
      const modelId = body.model ?? gateway.catalogue.cochatModels[0] ?? "cochat";
      if (!gateway.catalogue.getModel(modelId)) {
        throw new AppError(
          MODEL_ERROR_CODES.modelNotFound,
          404,
          `There is no model "${modelId}". See GET /api/cochat/models for CoChat's models.`,
        );
      }
      if (!gateway.catalogue.cochatModels.includes(modelId)) {
        throw new AppError(
          COCHAT_ERROR_CODES.modelNotOffered,
          400,
          `CoChat does not offer "${modelId}". See GET /api/cochat/models for its models.`,
        );
      }
      const refused = await fairUse.take(request, user.id);
      if (refused) {
        const minutes = Math.ceil(refused.retryAfterSeconds / 60);
        throw new AppError(
          COCHAT_ERROR_CODES.fairUseLimit,
          429,
          `You've sent ${app.config.cochat.messagesPerHour} CoChat messages this hour, the fair-use limit of CoChat Unlimited. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
          { limit_per_hour: app.config.cochat.messagesPerHour },
          { "retry-after": String(refused.retryAfterSeconds) },
        );
      }
      const userKeys = await loadSignedInUserKeys(keyDeps, principal);
      const conversationId = body.session_id ?? defaultCochatSessionId();
      const lastMessage = body.messages.at(-1)?.content ?? "";
      const firstUserMessage = body.messages.find((m) => m.role === "user")?.content ?? lastMessage;
      const sse = openSse(reply);
      await answerCochat(
        { db: app.db, models: gateway, timeoutMs: app.config.cochat.timeoutMs, log: request.log },
        {
          userId: user.id,
          conversationId,
          modelId,
          messages: body.messages,
          temperature: body.temperature,
          maxTokens: body.max_tokens,
          userKeys,
          storeTurn: () =>
            startTurn(app.db, {
              userId: user.id,
              conversationId,
              model: modelId,
              firstUserMessage,
              userMessage: lastMessage,
            }),
        },
        sse,
      );
    },
  );

  r.get(
    "/api/cochat/conversations",
    {
      schema: {
        tags,
        summary: "The user's CoChat conversations, most recent first",
        response: { 200: ZCochatConversationsResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return { conversations: await listConversations(app.db, user.id) };
    },
  );

  r.get(
    "/api/cochat/conversations/:id",
    {
      schema: {
        tags,
        summary: "One CoChat conversation with its messages",
        params: ZConversationParams,
        response: { 200: ZCochatConversationResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return getConversation(app.db, user.id, request.params.id);
    },
  );

  r.delete(
    "/api/cochat/conversations/:id",
    {
      schema: {
        tags,
        summary: "Delete a CoChat conversation and its messages",
        params: ZConversationParams,
        response: { 200: ZSuccessResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await deleteConversation(app.db, user.id, request.params.id);
      return { success: true as const, message: "Conversation deleted." };
    },
  );

  r.get(
    "/api/cochat/health",
    {
      schema: {
        tags,
        summary: "CoChat's models and the state of their providers",
        response: { 200: ZCochatHealthResponse },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return checkCochatHealth(gateway, app.config.cochat.messagesPerHour);
    },
  );
}
