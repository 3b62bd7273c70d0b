import {
  defaultCochatSessionId,
  type TCochatMessage,
  type TCochatStoredMessage,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { isApiError } from "../../lib/api/api-error";
import {
  type ChatStreamHandlers,
  cochatKeys,
  getConversation,
  selectVersion,
  streamCochat,
  streamEdit,
  streamRegenerate,
} from "./cochat-api";

export type TurnStatus = "streaming" | "complete" | "stopped" | "failed";

/** One message on screen: stored, or being streamed right now. */
export interface Turn {
  key: string;
  /** The stored message's id; null until the conversation is read back after an answer. */
  id: string | null;
  /** Its versions (decision 068), oldest first; empty until stored. */
  versionIds: string[];
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

/** The settings as a request sends them (a new message, a regenerate, an edit). */
function modelOptions(settings: ChatSettings) {
  return {
    model: settings.model,
    temperature: settings.temperature,
    max_tokens: settings.maxTokens,
  };
}

let turnCounter = 0;
const nextKey = () => `turn-${++turnCounter}`;

function fromStored(message: TCochatStoredMessage): Turn {
  return {
    key: message.id,
    id: message.id,
    versionIds: message.version_ids,
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
  /** A new version of the answer at `index` (decision 068). */
  regenerate(index: number, settings: ChatSettings): void;
  /** Replaces the question at `index` with `text`: a new version, answered again. */
  edit(index: number, text: string, settings: ChatSettings): void;
  /** Shows the branch holding that version of a message. */
  showVersion(messageId: string): Promise<void>;
  stop(): void;
}

const newTurn = (role: "user" | "assistant", content: string): Turn => ({
  key: nextKey(),
  id: null,
  versionIds: [],
  role,
  content,
  status: role === "user" ? "complete" : "streaming",
  error: null,
  modelName: null,
  simulated: null,
});

/**
 * One CoChat conversation: its messages on screen (the branch shown, decision 068), and the
 * answer streaming in. A conversation started here gets its id (`cochat-{timestamp}`) at
 * once, so `onStarted` can put it in the address before the server has answered. After each
 * answer the conversation is read back, so every message has its id and its versions.
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

  /** Streams one answer into the turn `answerKey`, then reads the conversation back. */
  const stream = useCallback(
    (
      id: string,
      answerKey: string,
      start: (handlers: ChatStreamHandlers, signal: AbortSignal) => Promise<void>,
    ) => {
      setStreaming(true);
      const abort = new AbortController();
      controller.current = abort;
      start(
        {
          onStart: (event) =>
            updateTurn(answerKey, (turn) => ({
              ...turn,
              modelName: event.model_name,
              simulated: event.simulated,
            })),
          onDelta: (delta) =>
            updateTurn(answerKey, (turn) => ({ ...turn, content: turn.content + delta })),
          onDone: (event) =>
            updateTurn(answerKey, (turn) => ({
              ...turn,
              status: "complete",
              modelName: event.model_name,
              simulated: event.simulated,
            })),
          onError: (event) =>
            updateTurn(answerKey, (turn) => ({
              ...turn,
              status: "failed",
              error: event.message,
              errorCode: event.code,
            })),
        },
        abort.signal,
      )
        .then(() => true)
        .catch((error: unknown) => {
          if (abort.signal.aborted) {
            updateTurn(answerKey, (turn) => ({ ...turn, status: "stopped" }));
            return false;
          }
          const message = isApiError(error)
            ? error.message
            : "Something went wrong. Please try again.";
          updateTurn(answerKey, (turn) => ({ ...turn, status: "failed", error: message }));
          return false;
        })
        .then(async (ended) => {
          if (controller.current === abort) controller.current = null;
          setStreaming(false);
          void queryClient.invalidateQueries({ queryKey: cochatKeys.conversations });
          // Stored before `done` (or `error`) was sent: read back, every message has its id
          // and its versions. A Stop is stored as the server notices it, so not read here;
          // nor when another answer has started meanwhile.
          if (!ended || ownId.current !== id) return;
          const data = await getConversation(id).catch(() => null);
          if (data && ownId.current === id && controller.current === null) {
            setTurns(data.messages.map(fromStored));
          }
        });
    },
    [queryClient, updateTurn],
  );

  const send = useCallback(
    (text: string, settings: ChatSettings) => {
      if (streaming) return;
      const id = conversationId ?? defaultCochatSessionId();
      ownId.current = id;
      const userTurn = newTurn("user", text);
      const answer = newTurn("assistant", "");
      const messages = [...historyOf(turns), { role: "user" as const, content: text }];
      // The new message follows the last one on screen (decision 068).
      const last = turns.at(-1);
      const parent =
        last === undefined ? { parent_id: null } : last.id ? { parent_id: last.id } : {};
      setTurns((current) => [...current, userTurn, answer]);
      if (conversationId === null) onStarted(id);
      stream(id, answer.key, (handlers, signal) =>
        streamCochat(
          {
            messages,
            session_id: id,
            ...modelOptions(settings),
            ...(conversationId === null ? {} : parent),
          },
          handlers,
          signal,
        ),
      );
    },
    [conversationId, onStarted, stream, streaming, turns],
  );

  const regenerate = useCallback(
    (index: number, settings: ChatSettings) => {
      const target = turns[index];
      if (streaming || !conversationId || !target?.id || target.role !== "assistant") return;
      const messageId = target.id;
      const answer = newTurn("assistant", "");
      setTurns((current) => [...current.slice(0, index), answer]);
      stream(conversationId, answer.key, (handlers, signal) =>
        streamRegenerate(conversationId, messageId, modelOptions(settings), handlers, signal),
      );
    },
    [conversationId, stream, streaming, turns],
  );

  const edit = useCallback(
    (index: number, text: string, settings: ChatSettings) => {
      const target = turns[index];
      if (streaming || !conversationId || !target?.id || target.role !== "user") return;
      const messageId = target.id;
      const question = newTurn("user", text);
      const answer = newTurn("assistant", "");
      setTurns((current) => [...current.slice(0, index), question, answer]);
      stream(conversationId, answer.key, (handlers, signal) =>
        streamEdit(
          conversationId,
          messageId,
          { content: text, ...modelOptions(settings) },
          handlers,
          signal,
        ),
      );
    },
    [conversationId, stream, streaming, turns],
  );

  const showVersion = useCallback(
    async (messageId: string) => {
      if (streaming || !conversationId) return;
      const data = await selectVersion(conversationId, messageId);
      if (ownId.current === conversationId) setTurns(data.messages.map(fromStored));
    },
    [conversationId, streaming],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  return {
    turns,
    loading,
    loadError,
    streaming,
    storedModel,
    send,
    regenerate,
    edit,
    showVersion,
    stop,
  };
}
