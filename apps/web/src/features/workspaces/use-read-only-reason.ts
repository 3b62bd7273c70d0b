import { WORKSPACE_MESSAGES } from "@cohort/contracts";
import { useCurrentWorkspace } from "./current-workspace";

/**
 * Why the user cannot change things here: a viewer's workspace (the server answers 403
 * anyway; the screen says so before the click). `workspaceId` is the workspace of the thing
 * on screen (a session); left out, the workspace in view. Null when changing is allowed.
 */
export function useReadOnlyReason(workspaceId?: string): string | null {
  const { workspace, workspaces } = useCurrentWorkspace();
  const target =
    workspaceId === undefined ? workspace : workspaces.find((item) => item.id === workspaceId);
  return target?.role === "viewer" ? WORKSPACE_MESSAGES.viewerReadOnly : null;
}
