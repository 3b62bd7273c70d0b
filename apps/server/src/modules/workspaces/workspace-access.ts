import {
  ERROR_CODES,
  roleAtLeast,
  type TWorkspaceKind,
  type TWorkspaceRole,
  WORKSPACE_ERROR_CODES,
  WORKSPACE_MESSAGES,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import type { Payer } from "../credits/payer";

/** The caller's place in one workspace. */
export interface WorkspaceAccess {
  workspaceId: string;
  kind: TWorkspaceKind;
  role: TWorkspaceRole;
}

export function workspaceNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, WORKSPACE_MESSAGES.notFound);
}

/** 403 for a member whose role is below `least`; viewers hear that they only read. */
export function roleTooLow(least: TWorkspaceRole, role: TWorkspaceRole): AppError {
  return new AppError(
    WORKSPACE_ERROR_CODES.roleTooLow,
    403,
    role === "viewer" ? WORKSPACE_MESSAGES.viewerReadOnly : WORKSPACE_MESSAGES.roleTooLow(least),
    { role, needs: least },
  );
}

/** Throws `roleTooLow` unless `access.role` is at least `least`. */
export function requireRole(access: { role: TWorkspaceRole }, least: TWorkspaceRole): void {
  if (!roleAtLeast(access.role, least)) throw roleTooLow(least, access.role);
}

/** The caller's role in the workspace, or null when they are not a member (or it is gone). */
export async function findWorkspaceAccess(
  db: Queryable,
  userId: string,
  workspaceId: string,
): Promise<WorkspaceAccess | null> {
  if (!isUuid(workspaceId)) return null;
  const { rows } = await db.query<{ kind: TWorkspaceKind; role: TWorkspaceRole }>(
    `SELECT w.kind, m.role FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.workspace_id = $1 AND m.user_id = $2`,
    [workspaceId, userId],
  );
  const row = rows[0];
  return row ? { workspaceId, kind: row.kind, role: row.role } : null;
}

/**
 * The one access check for a workspace and what is in it: 404 for anyone who is not a
 * member (the same answer as for a workspace that does not exist, so ids cannot be probed),
 * 403 for a member whose role is below `least`. Without `workspaceId`, the caller's personal
 * workspace (its id is the user's id).
 */
export async function requireWorkspaceAccess(
  db: Queryable,
  userId: string,
  workspaceId: string | undefined,
  least: TWorkspaceRole = "viewer",
): Promise<WorkspaceAccess> {
  // The caller's personal workspace needs no lookup: its id is the user's id and the user is
  // always its owner (created with the account, never left), so the common call costs nothing.
  if (workspaceId === undefined || workspaceId === userId) {
    const personal: WorkspaceAccess = { workspaceId: userId, kind: "personal", role: "owner" };
    requireRole(personal, least);
    return personal;
  }
  const access = await findWorkspaceAccess(db, userId, workspaceId);
  if (!access) throw workspaceNotFound();
  requireRole(access, least);
  return access;
}

/**
 * Who pays for a call made by `userId` in `workspaceId`: the workspace's credit account,
 * and, in a team workspace, the member whose monthly cap it counts against (null in a
 * personal workspace, whose account is the user's own).
 */
export function payerFor(workspaceId: string, userId: string): Payer {
  return { accountId: workspaceId, memberId: workspaceId === userId ? null : userId };
}
