import type {
  TAgentRolesResponse,
  TCancelRunResponse,
  TChatResponse,
  TCreateSessionRequest,
  TModel,
  TModelsResponse,
  TRunEventsResponse,
  TSessionDetailResponse,
  TSessionResponse,
  TSessionStatus,
  TSessionsResponse,
  TUpdateSessionRequest,
} from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";
import { trackFunnelStep } from "../../lib/telemetry/telemetry";

/** The calls of Cohort Chat (spec §7 sessions and /ai/*), with their query keys. */
export const chatKeys = {
  sessions: ["sessions"] as const,
  sessionList: (q: string) => ["sessions", "list", q] as const,
  session: (id: string) => ["sessions", "detail", id] as const,
  models: ["ai", "models"] as const,
  roles: ["ai", "agent-roles"] as const,
};

export const SESSION_LIST_PAGE_SIZE = 50;

export function listSessions(q: string, signal?: AbortSignal): Promise<TSessionsResponse> {
  return api.get<TSessionsResponse>("/sessions", {
    query: { page: 1, pageSize: SESSION_LIST_PAGE_SIZE, q: q.trim() || undefined },
    signal,
  });
}

export function getSessionDetail(
  id: string,
  signal?: AbortSignal,
): Promise<TSessionDetailResponse> {
  return api.get<TSessionDetailResponse>(`/sessions/${encodeURIComponent(id)}`, { signal });
}

export function listSessionEvents(
  id: string,
  after: number,
  signal?: AbortSignal,
): Promise<TRunEventsResponse> {
  return api.get<TRunEventsResponse>(`/sessions/${encodeURIComponent(id)}/events`, {
    query: { after },
    signal,
  });
}

export function createSession(body: TCreateSessionRequest): Promise<TSessionResponse> {
  return api.post<TSessionResponse>("/sessions", body);
}

export function updateSession(id: string, body: TUpdateSessionRequest): Promise<TSessionResponse> {
  return api.patch<TSessionResponse>(`/sessions/${encodeURIComponent(id)}`, body);
}

export function deleteSession(id: string): Promise<unknown> {
  return api.delete(`/sessions/${encodeURIComponent(id)}`);
}

export function setSessionStatus(id: string, status: TSessionStatus): Promise<TSessionResponse> {
  return api.put<TSessionResponse>(`/sessions/${encodeURIComponent(id)}/status`, { status });
}

export async function sendChatMessage(sessionId: string, message: string): Promise<TChatResponse> {
  const started = await api.post<TChatResponse>("/ai/chat", { session_id: sessionId, message });
  // The funnel counts users who started any run; the admin summary takes the first.
  trackFunnelStep("first_run");
  return started;
}

export function cancelRun(runId: string): Promise<TCancelRunResponse> {
  return api.post<TCancelRunResponse>(`/ai/chat/${encodeURIComponent(runId)}/cancel`);
}

/** The catalogue changes only with the server's configuration. */
const CATALOGUE_STALE_MS = 10 * 60_000;

export function useModels() {
  return useQuery({
    queryKey: chatKeys.models,
    queryFn: ({ signal }) => api.get<TModelsResponse>("/ai/models", { signal }),
    staleTime: CATALOGUE_STALE_MS,
    select: (data) => data.models,
  });
}

export function useAgentRoles() {
  return useQuery({
    queryKey: chatKeys.roles,
    queryFn: ({ signal }) => api.get<TAgentRolesResponse>("/ai/agent-roles", { signal }),
    staleTime: CATALOGUE_STALE_MS,
    select: (data) => data.roles,
  });
}

export function modelsById(models: readonly TModel[] | undefined): Map<string, TModel> {
  return new Map((models ?? []).map((model) => [model.id, model]));
}
