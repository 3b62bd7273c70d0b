import { randomUUID } from "node:crypto";
import {
  COHORT_TEAM_MODEL,
  MODEL_ERROR_CODES,
  OPENAI_API_MESSAGES,
  OPENAI_API_PREFIX,
  SIMULATED_HEADER,
  SIMULATOR_FINGERPRINT,
  type TChatCompletion,
  type TChatCompletionChunk,
  type TCohortRunSummary,
  type TOpenAIModelList,
  ZChatCompletion,
  ZOpenAIModelList,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../platform/errors";
import { openSse, type SseStream } from "../../platform/sse";
import type { ModelGateway } from "../models/gateway";
import {
  type CompletionEnd,
  type CompletionOutput,
  completeWithModel,
} from "./complete-with-model";
import { answerOpenAIError, toOpenAIFailure } from "./openai-error";
import { type CompletionRequest, parseCompletionRequest } from "./parse-completion-request";
import { requireToken } from "./require-token";
import { runTeam, type TeamRunEnd } from "./run-team";

const tags = ["openai-compatible"];

/** Aborted when the client goes away before the answer has been sent in full. */
function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) {
      gone.abort(new DOMException("The client disconnected", "AbortError"));
    }
  });
  return gone.signal;
}

function listModels(gateway: ModelGateway, created: number): TOpenAIModelList {
  return {
    object: "list",
    data: [
      { id: COHORT_TEAM_MODEL, object: "model", created, owned_by: "cohort" },
      ...gateway.catalogue.models.map((model) => ({
        id: model.id,
        object: "model" as const,
        created,
        owned_by: model.kind === "native" ? "cohort" : (model.backends[0]?.provider ?? model.kind),
      })),
    ],
  };
}

const usageOf = (end: CompletionEnd) => ({
  prompt_tokens: end.usage.inputTokens,
  completion_tokens: end.usage.outputTokens,
  total_tokens: end.usage.inputTokens + end.usage.outputTokens,
});

const cohortOf = (end: CompletionEnd): { cohort?: TCohortRunSummary } =>
  "cohort" in end ? { cohort: (end as TeamRunEnd).cohort } : {};

/**
 * The OpenAI-compatible API (decision 034): the official SDKs work against
 * `<server>/api/v1` with an access token as their API key. Errors leave in OpenAI's shape.
 */
export async function publicApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    async (v1) => {
      v1.setErrorHandler(answerOpenAIError);
      v1.setNotFoundHandler((request, reply) =>
        answerOpenAIError(
          new AppError(
            "not_found",
            404,
            OPENAI_API_MESSAGES.routeNotFound(request.method, request.url.split("?")[0] ?? ""),
          ),
          request,
          reply,
        ),
      );
      await v1.register(openaiRoutes);
    },
    { prefix: OPENAI_API_PREFIX },
  );
}

async function openaiRoutes(v1: FastifyInstance): Promise<void> {
  const r = v1.withTypeProvider<ZodTypeProvider>();
  const gateway = v1.models;
  const created = Math.floor(Date.now() / 1000);

  r.get(
    "/models",
    {
      schema: {
        tags,
        summary:
          "The models an access token can call: `cohort-team` (the whole agent team) and the catalogue's enabled models",
        response: { 200: ZOpenAIModelList },
      },
    },
    async (request, reply) => {
      await requireToken(request, null);
      reply.header("cache-control", "no-store");
      return listModels(gateway, created);
    },
  );

  r.post(
    "/chat/completions",
    {
      schema: {
        tags,
        summary:
          "OpenAI chat completions (streamed or not): a catalogue model answers in one call; `cohort-team` runs the agent team in a new session and adds a `cohort` field. Needs the `chat` scope; spends the token owner's credits",
        // Validated in the handler, so a problem is reported with OpenAI's `param`.
        body: z.unknown(),
        response: { 200: ZChatCompletion },
      },
    },
    async (request, reply) => {
      const principal = await requireToken(request, "chat");
      const body = parseCompletionRequest(request.body);
      if (body.model !== COHORT_TEAM_MODEL && !gateway.catalogue.getModel(body.model)) {
        throw new AppError(
          MODEL_ERROR_CODES.modelNotFound,
          404,
          OPENAI_API_MESSAGES.unknownModel(body.model),
          { param: "model" },
        );
      }
      const clientGone = clientGoneSignal(reply);
      const answer = (output: CompletionOutput): Promise<CompletionEnd | TeamRunEnd> =>
        body.model === COHORT_TEAM_MODEL
          ? runTeam(
              v1.orchestration,
              {
                principal,
                system: body.system,
                messages: body.messages,
                clientGone,
                publicUrl: v1.config.publicUrl,
              },
              output,
            )
          : completeWithModel(
              v1.orchestration.deps,
              {
                principal,
                modelId: body.model,
                system: body.system,
                messages: body.messages,
                temperature: body.temperature,
                maxTokens: body.maxTokens,
                stop: body.stop,
                clientGone,
              },
              output,
            );
      const id = `chatcmpl-${randomUUID()}`;
      const stamp = { id, created: Math.floor(Date.now() / 1000), model: body.model };
      if (body.stream) return streamCompletion(reply, body, stamp, clientGone, answer);

      const end = await answer({ open() {}, text() {} });
      if ("failure" in end && end.failure) throw end.failure;
      if (end.simulated) reply.header(SIMULATED_HEADER, "1");
      const completion: TChatCompletion = {
        ...stamp,
        ...(end.simulated ? { system_fingerprint: SIMULATOR_FINGERPRINT } : {}),
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: end.text, refusal: null },
            finish_reason: end.finishReason,
            logprobs: null,
          },
        ],
        usage: usageOf(end),
        ...cohortOf(end),
      };
      reply.header("cache-control", "no-store");
      return completion;
    },
  );
}

interface Stamp {
  id: string;
  created: number;
  model: string;
}

/**
 * The answer as OpenAI streams it: `chat.completion.chunk`s as `data:` frames, the finish
 * chunk, the usage chunk when asked for, then `data: [DONE]`. Refusals before the first
 * byte (402, 404) are ordinary error answers; a failure after it is an `error` frame, which
 * the SDKs raise as an APIError.
 */
async function streamCompletion(
  reply: FastifyReply,
  body: CompletionRequest,
  stamp: Stamp,
  clientGone: AbortSignal,
  answer: (output: CompletionOutput) => Promise<CompletionEnd | TeamRunEnd>,
): Promise<void> {
  let sse: SseStream | null = null;
  let marks: Partial<TChatCompletionChunk> = {};
  const chunk = (
    delta: TChatCompletionChunk["choices"][number]["delta"],
    finish: TChatCompletionChunk["choices"][number]["finish_reason"] = null,
    extra: Partial<TChatCompletionChunk> = {},
  ): string => {
    const value: TChatCompletionChunk = {
      ...stamp,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      ...marks,
      ...extra,
    };
    return JSON.stringify(value);
  };
  const output: CompletionOutput = {
    open(simulated) {
      reply.header("cache-control", "no-store");
      // A simulated answer says so, in a header and in every chunk (decision 053).
      if (simulated) {
        reply.header(SIMULATED_HEADER, "1");
        marks = { system_fingerprint: SIMULATOR_FINGERPRINT };
      }
      sse = openSse(reply);
      // Sent at once: a team run takes a while before its answer's first word.
      sse.data(chunk({ role: "assistant", content: "" }));
    },
    text(delta) {
      sse?.data(chunk({ content: delta }));
    },
  };
  try {
    const end = await answer(output);
    const stream = sse as SseStream | null;
    if (!stream) return;
    if ("failure" in end && end.failure) {
      stream.data(JSON.stringify(toOpenAIFailure(end.failure).body));
      stream.end();
      return;
    }
    const cohort = cohortOf(end);
    stream.data(chunk({}, end.finishReason, cohort));
    if (body.includeUsage) {
      const usage: TChatCompletionChunk = {
        ...stamp,
        object: "chat.completion.chunk",
        choices: [],
        usage: usageOf(end),
        ...marks,
        ...cohort,
      };
      stream.data(JSON.stringify(usage));
    }
    stream.data("[DONE]");
    stream.end();
  } catch (error) {
    const stream = sse as SseStream | null;
    if (!stream) throw error;
    if (!clientGone.aborted) {
      const failure = toOpenAIFailure(error);
      if (failure.status >= 500) reply.log.error({ err: error }, "public API stream failed");
      stream.data(JSON.stringify(failure.body));
    }
    stream.end();
  }
}
