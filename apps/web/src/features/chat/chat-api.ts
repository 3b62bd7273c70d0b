import {
  BRANCH_ROUTES,
  SPENDING_ROUTES,
  type TAgentRolesResponse,
  type TCancelRunResponse,
  type TChatResponse,
  type TCostEstimate,
  type TCostEstimateQuery,
  type TCreateSessionRequest,
  type TEditMessageRequest,
  type TForkStepRequest,
  type TModel,
  type TModelsResponse,
  type TPutSessionDocumentsRequest,
  type TRerunStepRequest,
  type TRerunStepResponse,
  type TRunEventsResponse,
  type TSessionDocumentsResponse,
  type TSessionResponse,
  type TSessionRunsResponse,
  type TSessionStatus,
  type TSessionsResponse,
  type TShowBranchResponse,
  type TSynthesizeVersionResponse,
  type TUpdateSessionRequest,
} from "@cohort/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";
import { isApiError } from "../../lib/api/api-error";
import type { ApiClient } from "../../lib/api/client";
import { trackFunnelStep } from "../../lib/telemetry/telemetry";
import { workspaceScope } from "../workspaces/workspace-store";
import { RUNS_PAGE } from "./session-detail-api";

/**
 * The calls of Cohort Chat (sessions and /ai/*), with their query keys. Lists and
 * creates are in the workspace in view (workspace-store.ts); switching resets ["sessions"].
 */
export const chatKeys = {
  sessions: ["sessions"] as const,
  sessionList: (q: string) => ["sessions", "list", q] as const,
  session: (id: string) => ["sessions", "detail", id] as const,
  estimate: (id: string, query: TCostEstimateQuery) =>
    ["sessions", "estimate", id, query.message_chars ?? 0, query.run_id ?? ""] as const,
  documents: (id: string) => ["sessions", "documents", id] as const,
  models: ["ai", "models"] as const,
  roles: ["ai", "agent-roles"] as const,
};

export const SESSION_LIST_PAGE_SIZE = 50;

export function listSessions(q: string, signal?: AbortSignal): Promise<TSessionsResponse> {
  return api.get<TSessionsResponse>("/sessions", {
    query: {
      page: 1,
      pageSize: SESSION_LIST_PAGE_SIZE,
      q: q.trim() || undefined,
      ...workspaceScope(),
    },
    signal,
  });
}

/** Up to RUNS_PAGE runs in full just older than run `before` (decision 077). */
export function listEarlierRuns(
  id: string,
  before: string,
  signal?: AbortSignal,
): Promise<TSessionRunsResponse> {
  return api.get<TSessionRunsResponse>(`/sessions/${encodeURIComponent(id)}/runs`, {
    query: { before, limit: RUNS_PAGE },
    signal,
  });
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
  return api.post<TSessionResponse>("/sessions", { ...workspaceScope(), ...body });
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

/** The documents a session's runs work from (decision 037). */
export function getSessionDocuments(
  id: string,
  signal?: AbortSignal,
): Promise<TSessionDocumentsResponse> {
  return api.get<TSessionDocumentsResponse>(`/sessions/${encodeURIComponent(id)}/documents`, {
    signal,
  });
}

/** Replaces the session's attached documents with `documentIds` ([] detaches them all). */
export function putSessionDocuments(
  id: string,
  documentIds: readonly string[],
): Promise<TSessionDocumentsResponse> {
  const body: TPutSessionDocumentsRequest = { document_ids: [...documentIds] };
  return api.put<TSessionDocumentsResponse>(`/sessions/${encodeURIComponent(id)}/documents`, body);
}

export function useSessionDocuments(id: string) {
  return useQuery({
    queryKey: chatKeys.documents(id),
    queryFn: ({ signal }) => getSessionDocuments(id, signal),
    select: (data) => data.documents,
  });
}

export async function sendChatMessage(sessionId: string, message: string): Promise<TChatResponse> {
  const started = await api.post<TChatResponse>("/ai/chat", { session_id: sessionId, message });
  // The funnel counts users who started any run; the admin summary takes the first.
  trackFunnelStep("first_run");
  return started;
}

/** A new run of the message an ended run answered; the old run stays (decision 031). */
export function regenerateRun(runId: string): Promise<TChatResponse> {
  return api.post<TChatResponse>(`/ai/chat/${encodeURIComponent(runId)}/regenerate`);
}

/** One agent step of an ended run again, on another model or temperature (decision 031). */
export function rerunStep(
  sessionId: string,
  runId: string,
  stepId: string,
  body: TRerunStepRequest,
): Promise<TRerunStepResponse> {
  return api.post<TRerunStepResponse>(
    `/sessions/${encodeURIComponent(sessionId)}/runs/${encodeURIComponent(runId)}/steps/${encodeURIComponent(stepId)}/rerun`,
    body,
  );
}

/** The run's answer written again with a step's re-run version (decision 031). */
export function synthesizeVersion(
  sessionId: string,
  runId: string,
  stepId: string,
  version: number,
): Promise<TSynthesizeVersionResponse> {
  return api.post<TSynthesizeVersionResponse>(
    `/sessions/${encodeURIComponent(sessionId)}/runs/${encodeURIComponent(runId)}/steps/${encodeURIComponent(stepId)}/versions/${version}/synthesize`,
  );
}

/** What the run about to start will probably cost, and from which wallet (decision 053). */
export function getCostEstimate(
  sessionId: string,
  query: TCostEstimateQuery,
  signal?: AbortSignal,
): Promise<TCostEstimate> {
  return api.get<TCostEstimate>(
    SPENDING_ROUTES.estimate(encodeURIComponent(sessionId)).replace(/^\/api/, ""),
    {
      query: { message_chars: query.message_chars, run_id: query.run_id },
      signal,
    },
  );
}

export function useCostEstimate(sessionId: string, query: TCostEstimateQuery, enabled: boolean) {
  return useQuery({
    queryKey: chatKeys.estimate(sessionId, query),
    queryFn: ({ signal }) => getCostEstimate(sessionId, query, signal),
    enabled,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function cancelRun(runId: string): Promise<TCancelRunResponse> {
  return api.post<TCancelRunResponse>(`/ai/chat/${encodeURIComponent(runId)}/cancel`);
}

/** The catalogue changes only with the server's configuration. */
const CATALOGUE_STALE_MS = 10 * 60_000;

const NO_MODELS: TModelsResponse = { models: [] };
const NO_ROLES: TAgentRolesResponse = { roles: [] };

/**
 * The error texts: a rate-limited (429) GET of the models or roles resolves empty; the client has
 * already logged the warning with its Retry-After. An empty answer is never fresh, so the
 * next mount or focus asks again instead of keeping an empty catalogue for ten minutes.
 */
async function getCatalogue<T>(
  client: ApiClient,
  path: string,
  empty: T,
  signal: AbortSignal,
): Promise<T> {
  try {
    return await client.get<T>(path, { signal });
  } catch (error) {
    if (isApiError(error) && error.status === 429) return empty;
    throw error;
  }
}

export function fetchModels(signal: AbortSignal, client = api): Promise<TModelsResponse> {
  return getCatalogue(client, "/ai/models", NO_MODELS, signal);
}

export function fetchAgentRoles(signal: AbortSignal, client = api): Promise<TAgentRolesResponse> {
  return getCatalogue(client, "/ai/agent-roles", NO_ROLES, signal);
}

export function useModels() {
  return useQuery({
    queryKey: chatKeys.models,
    queryFn: ({ signal }) => fetchModels(signal),
    staleTime: (query) => (query.state.data?.models.length ? CATALOGUE_STALE_MS : 0),
    select: (data) => data.models,
  });
}

export function useAgentRoles() {
  return useQuery({
    queryKey: chatKeys.roles,
    queryFn: ({ signal }) => fetchAgentRoles(signal),
    staleTime: (query) => (query.state.data?.roles.length ? CATALOGUE_STALE_MS : 0),
    select: (data) => data.roles,
  });
}

export function modelsById(models: readonly TModel[] | undefined): Map<string, TModel> {
  return new Map((models ?? []).map((model) => [model.id, model]));
}

/** A new version of a sent message, with its own run (decision 070). */
export function editMessage(
  sessionId: string,
  messageId: string,
  message: string,
): Promise<TChatResponse> {
  return api.post<TChatResponse>(
    BRANCH_ROUTES.edit(encodeURIComponent(sessionId), encodeURIComponent(messageId)).replace(
      /^\/api/,
      "",
    ),
    { message } satisfies TEditMessageRequest,
  );
}

/** Puts a message's version, or an answer's, on screen (decision 070). */
export function showBranch(
  sessionId: string,
  kind: "message" | "run",
  id: string,
): Promise<TShowBranchResponse> {
  const path =
    kind === "message"
      ? BRANCH_ROUTES.showMessage(encodeURIComponent(sessionId), encodeURIComponent(id))
      : BRANCH_ROUTES.showRun(encodeURIComponent(sessionId), encodeURIComponent(id));
  return api.post<TShowBranchResponse>(path.replace(/^\/api/, ""));
}

/** A fork of an ended run from one of its completed steps (decision 070). */
export function forkStep(
  sessionId: string,
  runId: string,
  stepId: string,
  body: TForkStepRequest,
): Promise<TChatResponse> {
  return api.post<TChatResponse>(
    BRANCH_ROUTES.fork(
      encodeURIComponent(sessionId),
      encodeURIComponent(runId),
      encodeURIComponent(stepId),
    ).replace(/^\/api/, ""),
    body,
  );
}
