import {
  APPROVAL_ROUTES,
  type TDecideApprovalRequest,
  type TToolApprovalResponse,
  type TToolApprovalsResponse,
} from "@cohort/contracts";
import { api } from "../../lib/api/api";

/** The client's paths are under /api already. */
const path = (full: string) => full.replace(/^\/api/, "");

export const approvalKeys = {
  pending: (sessionId: string) => ["sessions", "approvals", sessionId] as const,
};

export function listApprovals(
  sessionId: string,
  signal?: AbortSignal,
): Promise<TToolApprovalsResponse> {
  return api.get<TToolApprovalsResponse>(
    path(APPROVAL_ROUTES.list(encodeURIComponent(sessionId))),
    {
      signal,
    },
  );
}

export function decideApproval(
  sessionId: string,
  approvalId: string,
  body: TDecideApprovalRequest,
): Promise<TToolApprovalResponse> {
  return api.post<TToolApprovalResponse>(
    path(APPROVAL_ROUTES.decide(encodeURIComponent(sessionId), encodeURIComponent(approvalId))),
    body,
  );
}
