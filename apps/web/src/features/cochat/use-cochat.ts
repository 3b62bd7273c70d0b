import {
  defaultCochatSessionId,
  type TCochatMessage,
  type TCochatStoredMessage,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { isApiError } from "../../lib/api/api-error";
import { cochatKeys, getConversation, streamCochat } from "./cochat-api";

export type TurnStatus = "streaming" | "complete" | "stopped" | "failed";

/** One message on screen: stored, or being streamed right now. */
export interface Turn {
  key: string;
  role: "user" | "assistant";
  content: string;
  status: TurnStatus;
  error: string | null;
  /** The error's code: a refused user key links to Settings (decision 029). */
  errorCode?: string | null;
  modelName: string | null;
  simulated: boolean | null;
}

export interface ChatSettings {
  model: string;
  temperature: number;
  maxTokens: number;
}

let turnCounter = 0;
const nextKey = () => `turn-${++turnCounter}`;

function fromStored(message: TCochatStoredMessage): Turn {
  return {
    key: message.id,
    role: message.role,
    content: message.content,
    status: message.status,
    error: message.error?.message ?? null,
    errorCode: message.error?.code ?? null,
    modelName: message.model_name,
    simulated: message.simulated,
  };
}

/** What the model is sent: the conversation so far, without answers that never came. */
export function historyOf(turns: readonly Turn[]): TCochatMessage[] {
  return turns
    .filter((t) => t.content.trim().length > 0)
    .map((t) => ({ role: t.role, content: t.content }));
}

export interface CochatState {
  turns: Turn[];
  loading: boolean;
  loadError: string | null;
  streaming: boolean;
  /** The model of the conversation as stored, once loaded. */
  storedModel: string | null;
  send(text: string, settings: ChatSettings): void;
  stop(): void;
}

/**
 * One CoChat conversation: its stored messages, and the answer streaming in. A conversation
 * started here gets its id (`cochat-{timestamp}`) at once, so `onStarted` can put it in the
 * address before the server has answered.
 */
export function useCochat(
  conversationId: string | null,
  onStarted: (id: string) => void,
): CochatState {
  const queryClient = useQueryClient();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [streaming, setStreaming] = useState(false);
  const [storedModel, setStoredModel] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  /** The conversation this hook started: its turns are already on screen. */
  const ownId = useRef<string | null>(null);

  useEffect(() => {
    if (conversationId !== null && conversationId === ownId.current) return;
    controller.current?.abort();
    ownId.current = null;
    setTurns([]);
    setLoadError(null);
    setStoredModel(null);
    if (conversationId === null) return;
    const load = new AbortController();
    setLoading(true);
    getConversation(conversationId, load.signal)
      .then((data) => {
        setTurns(data.messages.map(fromStored));
        setStoredModel(data.conversation.model);
        ownId.current = conversationId;
      })
      .catch((error: unknown) => {
        if (isApiError(error) && error.isAborted) return;
        setLoadError(
          isApiError(error) && error.status === 404
            ? "This conversation no longer exists."
            : "Could not load this conversation. Please try again.",
        );
      })
      .finally(() => {
        if (!load.signal.aborted) setLoading(false);
      });
    return () => load.abort();
  }, [conversationId]);

  // Leaving the page stops the answer: nobody is reading it any more.
  useEffect(() => () => controller.current?.abort(), []);

  const updateTurn = useCallback((key: string, change: (turn: Turn) => Turn) => {
    setTurns((current) => current.map((turn) => (turn.key === key ? change(turn) : turn)));
  }, []);

  const send = useCallback(
    (text: string, settings: ChatSettings) => {
      if (streaming) return;
      const id = conversationId ?? defaultCochatSessionId();
      ownId.current = id;
      const userTurn: Turn = {
        key: nextKey(),
        role: "user",
        content: text,
        status: "complete",
        error: null,
        modelName: null,
        simulated: null,
      };
      const answer: Turn = {
        key: nextKey(),
        role: "assistant",
        content: "",
        status: "streaming",
        error: null,
        modelName: null,
        simulated: null,
      };
      const messages = [...historyOf(turns), { role: "user" as const, content: text }];
      setTurns((current) => [...current, userTurn, answer]);
      setStreaming(true);
      if (conversationId === null) onStarted(id);
      const abort = new AbortController();
      controller.current = abort;
      streamCochat(
        {
          messages,
          model: settings.model,
          session_id: id,
          temperature: settings.temperature,
          max_tokens: settings.maxTokens,
        },
        {
          onStart: (event) =>
            updateTurn(answer.key, (turn) => ({
              ...turn,
              modelName: event.model_name,
              simulated: event.simulated,
            })),
          onDelta: (delta) =>
            updateTurn(answer.key, (turn) => ({ ...turn, content: turn.content + delta })),
          onDone: (event) =>
            updateTurn(answer.key, (turn) => ({
              ...turn,
              status: "complete",
              modelName: event.model_name,
              simulated: event.simulated,
            })),
          onError: (event) =>
            updateTurn(answer.key, (turn) => ({
              ...turn,
              status: "failed",
              error: event.message,
              errorCode: event.code,
            })),
        },
        abort.signal,
      )
        .catch((error: unknown) => {
          if (abort.signal.aborted) {
            updateTurn(answer.key, (turn) => ({ ...turn, status: "stopped" }));
            return;
          }
          const message = isApiError(error)
            ? error.message
            : "Something went wrong. Please try again.";
          updateTurn(answer.key, (turn) => ({ ...turn, status: "failed", error: message }));
        })
        .finally(() => {
          if (controller.current === abort) controller.current = null;
          setStreaming(false);
          void queryClient.invalidateQueries({ queryKey: cochatKeys.conversations });
        });
    },
    [conversationId, onStarted, queryClient, streaming, turns, updateTurn],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  return { turns, loading, loadError, streaming, storedModel, send, stop };
}
