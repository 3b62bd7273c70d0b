import type { TEmailStatusResponse } from "@cohort/contracts";
import { api } from "../../lib/api/api";

/** Whether an address is still free for a new account (decision 030). */
export function fetchEmailStatus(email: string): Promise<TEmailStatusResponse> {
  return api.post<TEmailStatusResponse>("/user-auth/email-status", { email });
}
