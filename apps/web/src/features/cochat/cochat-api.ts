import {
  COCHAT_EVENTS,
  COCHAT_TIMEOUT_MS,
  type TCochatChatRequest,
  type TCochatConversationResponse,
  type TCochatConversationsResponse,
  type TCochatDoneEvent,
  type TCochatErrorEvent,
  type TCochatModelsResponse,
  type TCochatStartEvent,
  type TSuccessResponse,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";
import { createSseParser } from "./parse-sse";

/** CoChat's calls (/cochat/*), with their query keys. */
export const cochatKeys = {
  all: ["cochat"] as const,
  models: ["cochat", "models"] as const,
  conversations: ["cochat", "conversations"] as const,
};

export function useCochatModels() {
  return useQuery({
    queryKey: cochatKeys.models,
    queryFn: ({ signal }) => api.get<TCochatModelsResponse>("/cochat/models", { signal }),
    staleTime: 5 * 60_000,
    select: (data) => data.data,
  });
}

export function useCochatConversations() {
  return useQuery({
    queryKey: cochatKeys.conversations,
    queryFn: ({ signal }) =>
      api.get<TCochatConversationsResponse>("/cochat/conversations", { signal }),
    select: (data) => data.conversations,
  });
}

export function getConversation(
  id: string,
  signal?: AbortSignal,
): Promise<TCochatConversationResponse> {
  return api.get<TCochatConversationResponse>(`/cochat/conversations/${encodeURIComponent(id)}`, {
    signal,
  });
}

export function deleteConversation(id: string): Promise<TSuccessResponse> {
  return api.delete<TSuccessResponse>(`/cochat/conversations/${encodeURIComponent(id)}`);
}

export interface ChatStreamHandlers {
  onStart(event: TCochatStartEvent): void;
  onDelta(text: string): void;
  onDone(event: TCochatDoneEvent): void;
  onError(event: TCochatErrorEvent): void;
}

/**
 * POST /api/cochat/chat and read its Server-Sent Events until done or error. The product limits gives
 * CoChat 180 s, not the usual 30 s. Rejects with an ApiError when the call is refused
 * (locked, fair-use limit), cancelled (Stop) or cut off.
 */
export async function streamCochat(
  body: TCochatChatRequest,
  handlers: ChatStreamHandlers,
  signal: AbortSignal,
): Promise<void> {
  const stream = await api.stream("POST", "/cochat/chat", {
    body,
    signal,
    timeoutMs: COCHAT_TIMEOUT_MS,
  });
  let ended = false;
  const parser = createSseParser((event, data) => {
    const payload = JSON.parse(data) as unknown;
    switch (event) {
      case COCHAT_EVENTS.start:
        handlers.onStart(payload as TCochatStartEvent);
        break;
      case COCHAT_EVENTS.delta:
        handlers.onDelta((payload as { text: string }).text);
        break;
      case COCHAT_EVENTS.done:
        ended = true;
        handlers.onDone(payload as TCochatDoneEvent);
        break;
      case COCHAT_EVENTS.error:
        ended = true;
        handlers.onError(payload as TCochatErrorEvent);
        break;
    }
  });
  for await (const chunk of stream.chunks()) parser.push(chunk);
  parser.flush();
  if (!ended) {
    handlers.onError({
      code: "stream_ended",
      message: "The answer stopped before it was complete. Please try again.",
    });
  }
}
