import { type TWorkspaceRole, WORKSPACE_ERROR_CODES, WORKSPACE_MESSAGES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { requireRole, workspaceNotFound } from "./workspace-access";

/** Every member's role, locked for the rest of the transaction. */
export type LockedRoles = Map<string, TWorkspaceRole>;

/**
 * Locks the workspace's memberships for a change to them: two owners demoting each other at
 * once, or an owner leaving while the other is demoted, are serialised here, so the "last
 * owner" rule holds under concurrency. The caller's own role is read again under the lock.
 */
export async function lockMemberRoles(db: Queryable, workspaceId: string): Promise<LockedRoles> {
  const { rows } = await db.query<{ user_id: string; role: TWorkspaceRole }>(
    "SELECT user_id, role FROM workspace_members WHERE workspace_id = $1 ORDER BY user_id FOR UPDATE",
    [workspaceId],
  );
  return new Map(rows.map((row) => [row.user_id, row.role]));
}

/** The caller's role under the lock: 404 if they were removed meanwhile, 403 if too low now. */
export function lockedActorRole(
  roles: LockedRoles,
  actorId: string,
  least: TWorkspaceRole,
): TWorkspaceRole {
  const role = roles.get(actorId);
  if (!role) throw workspaceNotFound();
  requireRole({ role }, least);
  return role;
}

/** A change to one member, read under the lock: every role, the caller's and the member's. */
export interface LockedMemberChange {
  roles: LockedRoles;
  actorRole: TWorkspaceRole;
  targetRole: TWorkspaceRole;
}

/**
 * Locks the memberships for a change to `userId`, then checks the caller (at least `least`,
 * as `lockedActorRole`) before the member (404 when not one).
 */
export async function lockMemberChange(
  db: Queryable,
  change: { workspaceId: string; actorId: string; userId: string },
  least: TWorkspaceRole,
): Promise<LockedMemberChange> {
  const roles = await lockMemberRoles(db, change.workspaceId);
  const actorRole = lockedActorRole(roles, change.actorId, least);
  const targetRole = roles.get(change.userId);
  if (!targetRole) throw memberNotFound();
  return { roles, actorRole, targetRole };
}

export function memberNotFound(): AppError {
  return new AppError("not_found", 404, WORKSPACE_MESSAGES.memberNotFound);
}

/** Admins manage members and viewers; admins and owners are made and unmade by owners. */
export function requireMayManage(
  actorRole: TWorkspaceRole,
  ...roles: readonly TWorkspaceRole[]
): void {
  const touchesAdmins = roles.some((role) => role === "owner" || role === "admin");
  if (touchesAdmins && actorRole !== "owner") {
    throw new AppError(
      WORKSPACE_ERROR_CODES.roleTooLow,
      403,
      WORKSPACE_MESSAGES.onlyOwnersManageAdmins,
      { role: actorRole, needs: "owner" },
    );
  }
}

/**
 * Caps follow roles: admins cap members and viewers, only owners cap admins and owners — so
 * an admin can neither lift their own cap nor set the owner's (decision 052).
 */
export function requireMayCap(actorRole: TWorkspaceRole, targetRole: TWorkspaceRole): void {
  if ((targetRole === "owner" || targetRole === "admin") && actorRole !== "owner") {
    throw new AppError(
      WORKSPACE_ERROR_CODES.roleTooLow,
      403,
      WORKSPACE_MESSAGES.onlyOwnersCapAdmins,
      { role: actorRole, needs: "owner" },
    );
  }
}

/** 409 when taking `userId` out of the owners would leave none. */
export function requireAnotherOwner(roles: LockedRoles, userId: string): void {
  if (roles.get(userId) !== "owner") return;
  const owners = [...roles.values()].filter((role) => role === "owner").length;
  if (owners <= 1) {
    throw new AppError(WORKSPACE_ERROR_CODES.lastOwner, 409, WORKSPACE_MESSAGES.lastOwner);
  }
}

export function personalWorkspaceRefused(message: string): AppError {
  return new AppError(WORKSPACE_ERROR_CODES.personal, 400, message);
}
