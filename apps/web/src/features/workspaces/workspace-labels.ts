import type { TWorkspace, TWorkspaceRole } from "@cohort/contracts";

/** The words the workspace screens share, so the switcher and settings say the same. */
export const ROLE_LABELS: Record<TWorkspaceRole, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
  viewer: "Viewer",
};

/** "Only you" or "Team · Admin": what kind of place this is and what the user may do in it. */
export function workspaceKindLabel(workspace: Pick<TWorkspace, "kind" | "role">): string {
  return workspace.kind === "personal" ? "Only you" : `Team · ${ROLE_LABELS[workspace.role]}`;
}

/** Shown where a viewer would otherwise find a button that can only answer 403. */
export const VIEWER_NOTICE =
  "You are a viewer in this workspace: you can read it but not change it.";

/**
 * Whose memory this is (memory is kept per workspace, decision 040): "your personal
 * workspace" or "the Acme Research workspace" (decision 057).
 */
export function memoryOwnerLabel(workspace: Pick<TWorkspace, "kind" | "name"> | null): string {
  return workspace?.kind === "team" ? `the ${workspace.name} workspace` : "your personal workspace";
}
