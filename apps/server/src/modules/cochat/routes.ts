import {
  COCHAT_ERROR_CODES,
  COCHAT_MAX_MESSAGES,
  COCHAT_MESSAGES,
  defaultCochatSessionId,
  ERROR_CODES,
  hasCoChatAccess,
  MODEL_ERROR_CODES,
  type TCochatMessage,
  ZCochatChatRequest,
  ZCochatConversationResponse,
  ZCochatConversationsResponse,
  ZCochatEditRequest,
  ZCochatHealthResponse,
  ZCochatRegenerateRequest,
  ZCochatRenameRequest,
  ZCochatRenameResponse,
  ZCochatSelectVersionRequest,
  ZCochatSessionId,
  ZSuccessResponse,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
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
import { contextOf, leafUnder, loadTree, messageNotFound, pathTo } from "./conversation-tree";
import { deleteConversation } from "./delete-conversation";
import { conversationNotFound, getConversation } from "./get-conversation";
import { listConversations } from "./list-conversations";
import { startTurn } from "./start-turn";

const tags = ["cochat"];

const ZConversationParams = z.object({ id: ZCochatSessionId });
const ZMessageParams = z.object({ id: ZCochatSessionId, messageId: z.uuid() });

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

  /**
   * Checks the model and the fair-use limit, then streams one answer (the chat call, a
   * regenerated answer, an edited question's answer: decision 068).
   */
  const streamAnswer = async (
    request: FastifyRequest,
    reply: FastifyReply,
    input: {
      conversationId: string;
      modelId: string;
      messages: TCochatMessage[];
      temperature: number;
      maxTokens: number;
      storeTurn: () => Promise<string>;
    },
  ): Promise<void> => {
    const principal = await requireUser(request);
    const { user } = principal;
    const { modelId } = input;
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
    const sse = openSse(reply);
    await answerCochat(
      { db: app.db, models: gateway, timeoutMs: app.config.cochat.timeoutMs, log: request.log },
      {
        userId: user.id,
        conversationId: input.conversationId,
        modelId,
        messages: input.messages,
        temperature: input.temperature,
        maxTokens: input.maxTokens,
        userKeys,
        storeTurn: input.storeTurn,
      },
      sse,
    );
  };

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
      const { user } = await requireUser(request);
      const body = request.body;
      const modelId = body.model ?? gateway.catalogue.cochatModels[0] ?? "cochat";
      const conversationId = body.session_id ?? defaultCochatSessionId();
      const lastMessage = body.messages.at(-1)?.content ?? "";
      const firstUserMessage = body.messages.find((m) => m.role === "user")?.content ?? lastMessage;
      // A named parent must be a message of this conversation (decision 068).
      if (body.parent_id) {
        const tree = await loadTree(app.db, user.id, conversationId).catch(() => null);
        if (!tree?.byId.has(body.parent_id)) throw messageNotFound();
      }
      await streamAnswer(request, reply, {
        conversationId,
        modelId,
        messages: body.messages,
        temperature: body.temperature,
        maxTokens: body.max_tokens,
        storeTurn: () =>
          startTurn(app.db, {
            userId: user.id,
            conversationId,
            model: modelId,
            firstUserMessage,
            userMessage: lastMessage,
            parentId: body.parent_id,
          }),
      });
    },
  );

  r.post(
    "/api/cochat/conversations/:id/messages/:messageId/regenerate",
    {
      preValidation: requireCochatAccess,
      schema: {
        tags,
        summary:
          "A new version of an answer, streamed like /api/cochat/chat; the model is sent the branch up to its question",
        params: ZMessageParams,
        body: ZCochatRegenerateRequest,
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const { id, messageId } = request.params;
      const tree = await loadTree(app.db, user.id, id);
      const answer = tree.byId.get(messageId);
      if (!answer) throw messageNotFound();
      if (answer.role !== "assistant" || !answer.parent_id) {
        throw new AppError(
          COCHAT_ERROR_CODES.wrongRole,
          400,
          "Only an answer can be regenerated; to change a question, edit it.",
        );
      }
      const questionId = answer.parent_id;
      await streamAnswer(request, reply, {
        conversationId: id,
        modelId: request.body.model ?? tree.model,
        messages: contextOf(pathTo(tree, questionId)),
        temperature: request.body.temperature,
        maxTokens: request.body.max_tokens,
        storeTurn: async () => questionId,
      });
    },
  );

  r.post(
    "/api/cochat/conversations/:id/messages/:messageId/edit",
    {
      preValidation: requireCochatAccess,
      schema: {
        tags,
        summary:
          "Edit a question in place: a new version of it, answered as /api/cochat/chat streams; the model is sent the branch before it",
        params: ZMessageParams,
        body: ZCochatEditRequest,
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const { id, messageId } = request.params;
      const tree = await loadTree(app.db, user.id, id);
      const question = tree.byId.get(messageId);
      if (!question) throw messageNotFound();
      if (question.role !== "user") {
        throw new AppError(
          COCHAT_ERROR_CODES.wrongRole,
          400,
          "Only your own messages can be edited; to get another answer, regenerate it.",
        );
      }
      const before = question.parent_id ? contextOf(pathTo(tree, question.parent_id)) : [];
      const content = request.body.content;
      const modelId = request.body.model ?? tree.model;
      await streamAnswer(request, reply, {
        conversationId: id,
        modelId,
        messages: [...before, { role: "user" as const, content }].slice(-COCHAT_MAX_MESSAGES),
        temperature: request.body.temperature,
        maxTokens: request.body.max_tokens,
        storeTurn: () =>
          startTurn(app.db, {
            userId: user.id,
            conversationId: id,
            model: modelId,
            firstUserMessage: content,
            userMessage: content,
            parentId: question.parent_id,
          }),
      });
    },
  );

  r.put(
    "/api/cochat/conversations/:id/current",
    {
      schema: {
        tags,
        summary:
          "Show another version: the branch that holds this message (its newest continuation) goes on screen",
        params: ZConversationParams,
        body: ZCochatSelectVersionRequest,
        response: { 200: ZCochatConversationResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      const tree = await loadTree(app.db, user.id, request.params.id);
      if (!tree.byId.has(request.body.message_id)) throw messageNotFound();
      await app.db.query(
        "UPDATE cochat_conversations SET current_leaf = $3 WHERE user_id = $1 AND id = $2",
        [user.id, request.params.id, leafUnder(tree, request.body.message_id)],
      );
      return getConversation(app.db, user.id, request.params.id);
    },
  );

  r.patch(
    "/api/cochat/conversations/:id",
    {
      schema: {
        tags,
        summary: "Rename a CoChat conversation",
        params: ZConversationParams,
        body: ZCochatRenameRequest,
        response: { 200: ZCochatRenameResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { rowCount } = await app.db.query(
        "UPDATE cochat_conversations SET title = $3 WHERE user_id = $1 AND id = $2",
        [user.id, request.params.id, request.body.title],
      );
      if (rowCount === 0) throw conversationNotFound();
      const { conversation } = await getConversation(app.db, user.id, request.params.id);
      return { conversation };
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
