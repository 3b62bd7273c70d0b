import type {
  TAgreementResponse,
  TAuthResponse,
  TLoginRequest,
  TOutboxResponse,
  TPublishAgreementRequest,
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

export const OUTBOX_QUERY_KEY = ["admin", "outbox"] as const;
