import { roleAtLeast, type TWorkspaceRole, WORKSPACE_ROLES } from "@cohort/contracts";

/**
 * What the settings screen offers, mirroring the server's role matrix (decision 040) so no
 * control is shown that can only answer 403: admins manage members and viewers, owners
 * manage everyone. The server still decides (e.g. the last owner cannot be demoted).
 */
const MANAGED_BY_ADMINS: readonly TWorkspaceRole[] = ["member", "viewer"];

/** The roles `myRole` may give someone who has `targetRole` now; empty: no choice. */
export function assignableRoles(
  myRole: TWorkspaceRole,
  targetRole: TWorkspaceRole,
): readonly TWorkspaceRole[] {
  if (myRole === "owner") return WORKSPACE_ROLES;
  if (myRole === "admin" && MANAGED_BY_ADMINS.includes(targetRole)) return MANAGED_BY_ADMINS;
  return [];
}

export function canRemoveMember(myRole: TWorkspaceRole, targetRole: TWorkspaceRole): boolean {
  return assignableRoles(myRole, targetRole).length > 0;
}

/** Invitations, caps, usage, the audit log and buying credits are for admins and owners. */
export function canManage(myRole: TWorkspaceRole): boolean {
  return roleAtLeast(myRole, "admin");
}
