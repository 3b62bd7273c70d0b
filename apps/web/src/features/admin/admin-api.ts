import type {
  TAdminAgreementsResponse,
  TAdminAuditQuery,
  TAdminAuditResponse,
  TAdminCreditAdjustmentRequest,
  TAdminCreditAdjustmentResponse,
  TAdminModelOverrideRequest,
  TAdminModelsResponse,
  TAdminOverview,
  TAdminPendingResponse,
  TAdminRevokeSignInsResponse,
  TAdminSetDisabledRequest,
  TAdminUserActionResponse,
  TAdminUserDetail,
  TAdminUsersQuery,
  TAdminUsersResponse,
  TAdminWorkspacesQuery,
  TAdminWorkspacesResponse,
  TAgreementResponse,
  TAnalyticsSummary,
  TAuthResponse,
  TLogEntriesQuery,
  TLogEntriesResponse,
  TLoginRequest,
  TOutboxResponse,
  TPublishAgreementRequest,
  TRequestTrail,
  TSubscriptionTier,
  TUserResponse,
} from "@cohort/contracts";
import { api } from "../../lib/api/api";

export function adminLogIn(body: TLoginRequest): Promise<TAuthResponse> {
  return api.post<TAuthResponse>("/admin/login", body);
}

export function fetchOutbox(signal?: AbortSignal): Promise<TOutboxResponse> {
  return api.get<TOutboxResponse>("/admin/outbox", { signal });
}

export function publishAgreement(body: TPublishAgreementRequest): Promise<TAgreementResponse> {
  return api.post<TAgreementResponse>("/admin/agreements", body);
}

export function fetchOverview(days: number, signal?: AbortSignal): Promise<TAdminOverview> {
  return api.get<TAdminOverview>("/admin/overview", { query: { days }, signal });
}

export function fetchUsers(
  query: TAdminUsersQuery,
  signal?: AbortSignal,
): Promise<TAdminUsersResponse> {
  return api.get<TAdminUsersResponse>("/admin/users", { query: { ...query }, signal });
}

export function fetchUser(id: string, signal?: AbortSignal): Promise<TAdminUserDetail> {
  return api.get<TAdminUserDetail>(`/admin/users/${encodeURIComponent(id)}`, { signal });
}

export function adjustCredits(
  id: string,
  body: TAdminCreditAdjustmentRequest,
): Promise<TAdminCreditAdjustmentResponse> {
  return api.post<TAdminCreditAdjustmentResponse>(
    `/admin/users/${encodeURIComponent(id)}/credits`,
    body,
  );
}

export function setTier(id: string, tier: TSubscriptionTier): Promise<TUserResponse> {
  return api.put<TUserResponse>(`/admin/users/${encodeURIComponent(id)}/tier`, { tier });
}

export function setDisabled(id: string, body: TAdminSetDisabledRequest): Promise<TAdminUserDetail> {
  return api.put<TAdminUserDetail>(`/admin/users/${encodeURIComponent(id)}/disabled`, body);
}

export function revokeSignIns(id: string): Promise<TAdminRevokeSignInsResponse> {
  return api.post<TAdminRevokeSignInsResponse>(
    `/admin/users/${encodeURIComponent(id)}/revoke-sign-ins`,
  );
}

/** Account support (decision 056): each answers the sentence the toast shows. */
export function sendVerificationEmail(id: string): Promise<TAdminUserActionResponse> {
  return api.post<TAdminUserActionResponse>(
    `/admin/users/${encodeURIComponent(id)}/verification-email`,
  );
}

export function markEmailVerified(id: string, reason: string): Promise<TAdminUserActionResponse> {
  return api.post<TAdminUserActionResponse>(`/admin/users/${encodeURIComponent(id)}/verify-email`, {
    reason,
  });
}

export function sendPasswordReset(id: string): Promise<TAdminUserActionResponse> {
  return api.post<TAdminUserActionResponse>(
    `/admin/users/${encodeURIComponent(id)}/password-reset`,
  );
}

export function deleteUser(id: string, reason: string): Promise<TAdminUserActionResponse> {
  return api.delete<TAdminUserActionResponse>(`/admin/users/${encodeURIComponent(id)}`, {
    body: { reason },
  });
}

export function fetchWorkspaces(
  query: TAdminWorkspacesQuery,
  signal?: AbortSignal,
): Promise<TAdminWorkspacesResponse> {
  return api.get<TAdminWorkspacesResponse>("/admin/workspaces", { query: { ...query }, signal });
}

export function fetchAgreements(signal?: AbortSignal): Promise<TAdminAgreementsResponse> {
  return api.get<TAdminAgreementsResponse>("/admin/agreements", { signal });
}

export function fetchPending(page: number, signal?: AbortSignal): Promise<TAdminPendingResponse> {
  return api.get<TAdminPendingResponse>("/admin/agreements/pending", {
    query: { page, pageSize: 10 },
    signal,
  });
}

export function fetchModels(signal?: AbortSignal): Promise<TAdminModelsResponse> {
  return api.get<TAdminModelsResponse>("/admin/models", { signal });
}

export function overrideModel(
  id: string,
  body: TAdminModelOverrideRequest,
): Promise<TAdminModelsResponse> {
  return api.put<TAdminModelsResponse>(`/admin/models/${encodeURIComponent(id)}`, body);
}

export function fetchAudit(
  query: Partial<TAdminAuditQuery>,
  signal?: AbortSignal,
): Promise<TAdminAuditResponse> {
  return api.get<TAdminAuditResponse>("/admin/audit", { query: { ...query }, signal });
}

export function fetchLogs(
  query: Partial<TLogEntriesQuery>,
  signal?: AbortSignal,
): Promise<TLogEntriesResponse> {
  return api.get<TLogEntriesResponse>("/admin/logs", { query: { ...query }, signal });
}

export function fetchTrail(requestId: string, signal?: AbortSignal): Promise<TRequestTrail> {
  return api.get<TRequestTrail>(`/admin/logs/requests/${encodeURIComponent(requestId)}`, {
    signal,
  });
}

export function fetchAnalytics(signal?: AbortSignal): Promise<TAnalyticsSummary> {
  return api.get<TAnalyticsSummary>("/admin/analytics", { signal });
}

export const OUTBOX_QUERY_KEY = ["admin", "outbox"] as const;

/** Query keys of the admin area; every one starts with "admin" so one call refreshes all. */
export const adminKeys = {
  all: ["admin"] as const,
  overview: (days: number) => ["admin", "overview", days] as const,
  users: (query: TAdminUsersQuery) => ["admin", "users", query] as const,
  user: (id: string) => ["admin", "user", id] as const,
  agreements: ["admin", "agreements"] as const,
  pending: (page: number) => ["admin", "agreements", "pending", page] as const,
  models: ["admin", "models"] as const,
  audit: (query: Partial<TAdminAuditQuery>) => ["admin", "audit", query] as const,
  logs: (query: Partial<TLogEntriesQuery>) => ["admin", "logs", query] as const,
  trail: (requestId: string) => ["admin", "trail", requestId] as const,
  analytics: ["admin", "analytics"] as const,
  workspaces: (query: TAdminWorkspacesQuery) => ["admin", "workspaces", query] as const,
};
