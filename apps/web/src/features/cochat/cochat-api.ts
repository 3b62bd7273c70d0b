import {
  COCHAT_EVENTS,
  COCHAT_TIMEOUT_MS,
  type TCochatChatRequest,
  type TCochatConversationResponse,
  type TCochatConversationsResponse,
  type TCochatDoneEvent,
  type TCochatEditRequest,
  type TCochatErrorEvent,
  type TCochatModelsResponse,
  type TCochatRegenerateRequest,
  type TCochatRenameResponse,
  type TCochatStartEvent,
  type TSuccessResponse,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";
import { readEvents } from "../../lib/api/read-events";

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
export function streamCochat(
  body: TCochatChatRequest,
  handlers: ChatStreamHandlers,
  signal: AbortSignal,
): Promise<void> {
  return streamAnswer("/cochat/chat", body, handlers, signal);
}

/** A new version of an answer, streamed like a chat answer (decision 068). */
export function streamRegenerate(
  conversationId: string,
  messageId: string,
  body: TCochatRegenerateRequest,
  handlers: ChatStreamHandlers,
  signal: AbortSignal,
): Promise<void> {
  return streamAnswer(
    `/cochat/conversations/${encodeURIComponent(conversationId)}/messages/${messageId}/regenerate`,
    body,
    handlers,
    signal,
  );
}

/** An edited question (a new version of it) and its answer, streamed (decision 068). */
export function streamEdit(
  conversationId: string,
  messageId: string,
  body: TCochatEditRequest,
  handlers: ChatStreamHandlers,
  signal: AbortSignal,
): Promise<void> {
  return streamAnswer(
    `/cochat/conversations/${encodeURIComponent(conversationId)}/messages/${messageId}/edit`,
    body,
    handlers,
    signal,
  );
}

/** Shows the branch that holds this version; answers the conversation as now shown. */
export function selectVersion(
  conversationId: string,
  messageId: string,
): Promise<TCochatConversationResponse> {
  return api.put<TCochatConversationResponse>(
    `/cochat/conversations/${encodeURIComponent(conversationId)}/current`,
    { message_id: messageId },
  );
}

export function renameConversation(id: string, title: string): Promise<TCochatRenameResponse> {
  return api.patch<TCochatRenameResponse>(`/cochat/conversations/${encodeURIComponent(id)}`, {
    title,
  });
}

async function streamAnswer(
  path: string,
  body: object,
  handlers: ChatStreamHandlers,
  signal: AbortSignal,
): Promise<void> {
  const stream = await api.stream("POST", path, {
    body,
    signal,
    timeoutMs: COCHAT_TIMEOUT_MS,
  });
  let ended = false;
  for await (const { event, data } of readEvents(stream.chunks())) {
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
  }
  if (!ended) {
    handlers.onError({
      code: "stream_ended",
      message: "The answer stopped before it was complete. Please try again.",
    });
  }
}
