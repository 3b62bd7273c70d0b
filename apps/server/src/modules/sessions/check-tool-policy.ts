import {
  APPROVAL_ERROR_CODES,
  APPROVAL_MESSAGES,
  roleAtLeast,
  type TToolPolicy,
  type TWorkspaceRole,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";

/**
 * Letting tools run without asking is for owners and admins of the workspace (decision 059):
 * a member who turns it on gets 403; one who changes something else in a session an admin
 * set to `never_ask` keeps it as it is.
 */
export function checkToolPolicy(
  role: TWorkspaceRole,
  policy: TToolPolicy | undefined,
  current: TToolPolicy | null = null,
): void {
  if (policy !== "never_ask" || current === "never_ask" || roleAtLeast(role, "admin")) return;
  throw new AppError(APPROVAL_ERROR_CODES.policyForbidden, 403, APPROVAL_MESSAGES.policyForbidden, {
    role,
    needs: "admin",
  });
}
