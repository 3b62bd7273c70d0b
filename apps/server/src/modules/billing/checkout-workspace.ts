import { ERROR_CODES, WORKSPACE_CREDIT_MESSAGES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";

/**
 * Whose account a credit pack fills: the buyer's own (null) when no workspace or the buyer's
 * personal one is named, else the team workspace's pool — bought by its owners and admins
 * only (404 for non-members, 403 `workspace_role_too_low` for members and viewers).
 */
export async function creditPackWorkspace(
  db: Queryable,
  userId: string,
  workspaceId: string | undefined,
): Promise<string | null> {
  if (workspaceId === undefined || workspaceId === userId) return null;
  const access = await requireWorkspaceAccess(db, userId, workspaceId, "admin");
  return access.kind === "team" ? access.workspaceId : null;
}

/** Subscriptions are a person's plan: naming any workspace but the buyer's own is a 400. */
export function requirePersonalSubscription(userId: string, workspaceId: string | undefined): void {
  if (workspaceId !== undefined && workspaceId !== userId) {
    throw new AppError(
      ERROR_CODES.validationFailed,
      400,
      WORKSPACE_CREDIT_MESSAGES.subscriptionPersonal,
    );
  }
}
