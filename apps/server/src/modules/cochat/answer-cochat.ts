import {
  COCHAT_EVENTS,
  ERROR_CODES,
  MODEL_ERROR_CODES,
  type TCochatDoneEvent,
  type TCochatMessage,
  type TCochatStartEvent,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError, INTERNAL_ERROR_MESSAGE } from "../../platform/errors";
import type { SseStream } from "../../platform/sse";
import { recordUsage } from "../credits/record-usage";
import type { ModelGateway } from "../models/gateway";
import type { UserProviderKeys } from "../models/providers";
import { finishTurn } from "./finish-turn";

export interface AnswerInput {
  userId: string;
  conversationId: string;
  modelId: string;
  messages: readonly TCochatMessage[];
  temperature: number;
  maxTokens: number;
  userKeys: UserProviderKeys;
  /**
   * Stores the user's message (startTurn) and says which question the answer follows;
   * answerCochat decides when (see below). A regenerated answer stores nothing new here.
   */
  storeTurn: () => Promise<string>;
}

export interface AnswerDeps {
  db: Db;
  models: ModelGateway;
  /** The whole answer's bound (the product limits: 180 s), retries included. */
  timeoutMs: number;
  log: {
    warn(details: object, message: string): void;
    error(details: object, message: string): void;
  };
}

/**
 * Streams one CoChat answer into an open SSE stream: `start`, `delta`s, then `done` or
 * `error`. The client going away (Stop) aborts the provider call; what had arrived is kept as
 * a stopped answer. CoChat Unlimited charges no credits; the usage is still recorded.
 */
export async function answerCochat(
  deps: AnswerDeps,
  input: AnswerInput,
  sse: SseStream,
): Promise<void> {
  const resolved = deps.models.resolve(input.modelId, input.userKeys);
  if (!resolved) throw new Error(`model ${input.modelId} vanished from the catalogue`);
  const first = resolved.targets[0];
  const start: TCochatStartEvent = {
    session_id: input.conversationId,
    model: resolved.model.id,
    model_name: resolved.model.name,
    provider: first?.provider ?? resolved.provider,
    simulated: resolved.simulated,
  };
  // `start` goes out once the provider request is out, or before any other event that comes
  // sooner: the stream's headers and `start` in one write, after the request, not before it.
  let started = false;
  const sendStart = () => {
    if (started) return;
    started = true;
    sse.send(COCHAT_EVENTS.start, start);
  };
  const send = (event: string, data: unknown) => {
    sendStart();
    sse.send(event, data);
  };

  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException("CoChat time-out", "TimeoutError")),
    deps.timeoutMs,
  );
  const abortSignal = AbortSignal.any([sse.clientGone, timeout.signal]);
  let text = "";
  // The user's message is stored while the provider is working on the first token: the
  // write stays off the time to first token (decision 016), yet it happens within a tick of
  // the request, so a crash mid-answer never loses the question; it precedes the answer's row.
  let turnStored: Promise<string> | null = null;
  const storeTurn = () => {
    if (!turnStored) {
      turnStored = input.storeTurn();
      // Awaited before the answer is stored; until then a failure is not "unhandled".
      turnStored.catch(() => undefined);
    }
    return turnStored;
  };
  const base = {
    userId: input.userId,
    conversationId: input.conversationId,
    model: resolved.model.id,
    modelName: resolved.model.name,
  };
  try {
    const answer = deps.models.streamModel({
      modelId: input.modelId,
      messages: input.messages,
      temperature: input.temperature,
      maxOutputTokens: input.maxTokens,
      userKeys: input.userKeys,
      abortSignal,
      onDelta: (delta) => {
        text += delta;
        send(COCHAT_EVENTS.delta, { text: delta });
      },
    });
    // Not in this tick: the provider request goes out first (PGlite's work is synchronous,
    // on this thread, and would otherwise hold the request back behind the write).
    setImmediate(() => {
      sendStart();
      storeTurn();
    });
    const result = await answer;
    const parentId = await storeTurn();
    const messageId = await finishTurn(deps.db, {
      ...base,
      parentId,
      content: result.text,
      status: "complete",
      provider: result.provider,
      simulated: result.simulated,
      keySource: result.keySource,
      usage: result.usage,
    });
    await recordUsage(deps.db, {
      userId: input.userId,
      reference: `cochat:${messageId}`,
      model: result.modelId,
      provider: result.provider,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      credits: 0,
      costUsd: 0,
    });
    const done: TCochatDoneEvent = {
      session_id: input.conversationId,
      message_id: messageId,
      model: result.modelId,
      model_name: result.modelName,
      provider: result.provider,
      simulated: result.simulated,
      key_source: result.keySource,
      usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens },
      finish_reason: result.finishReason,
      latency_ms: result.latencyMs,
    };
    send(COCHAT_EVENTS.done, done);
  } catch (cause) {
    const stopped = sse.clientGone.aborted && !timeout.signal.aborted;
    let error: { code: string; message: string };
    if (timeout.signal.aborted) {
      error = {
        code: MODEL_ERROR_CODES.providerTimeout,
        message: `${resolved.model.name} did not finish its answer within ${Math.round(deps.timeoutMs / 1000)} s. Please try again.`,
      };
    } else if (cause instanceof AppError) {
      error = { code: cause.code, message: cause.message };
    } else {
      deps.log.error({ err: cause }, "CoChat answer failed");
      error = { code: ERROR_CODES.internal, message: INTERNAL_ERROR_MESSAGE };
    }
    if (!stopped) deps.log.warn({ code: error.code, model: input.modelId }, "CoChat answer failed");
    const parentId = await storeTurn().catch(() => null);
    await finishTurn(deps.db, {
      ...base,
      parentId,
      content: text,
      status: stopped ? "stopped" : "failed",
      provider: start.provider,
      simulated: start.simulated,
      keySource: first?.keySource ?? null,
      error: stopped ? undefined : error,
    }).catch((storeError: unknown) => {
      deps.log.error({ err: storeError }, "could not store a CoChat answer");
    });
    if (!stopped) send(COCHAT_EVENTS.error, error);
  } finally {
    clearTimeout(timer);
    sse.end();
  }
}
