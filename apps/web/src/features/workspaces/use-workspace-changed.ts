import { SERVER_EVENTS, type TWorkspace } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "../../components/toast/toast-store";
import { useRealtimeEvent } from "../../lib/realtime/use-realtime";
import { currentWorkspaceId } from "./workspace-store";
import { workspaceKeys } from "./workspaces-api";

/** Workspaces this tab is leaving on purpose: their `workspace.changed` needs no toast. */
const leavingOnPurpose = new Set<string>();

/** Called before this user leaves or deletes a workspace themselves. */
export function markLeavingWorkspace(id: string): void {
  leavingOnPurpose.add(id);
}

export function removedMessage(name: string): string {
  return `You were removed from ${name}.`;
}

/**
 * `workspace.changed` (decision 040) tells this user their place in a workspace changed, at
 * once, on every tab: removed (role null) → back to the personal workspace with a notice when
 * it was the one in view; a new role → the list (and so every role check) is read again.
 */
export function useWorkspaceChanged(switchTo: (id: string) => void, personalId?: string): void {
  const queryClient = useQueryClient();
  useRealtimeEvent(SERVER_EVENTS.workspaceChanged, (change) => {
    const known = queryClient
      .getQueryData<TWorkspace[]>(workspaceKeys.list)
      ?.find((workspace) => workspace.id === change.workspace_id);
    if (change.role === null) {
      // Its members, pool and log can only answer 404 now: forget them instead of asking.
      void queryClient.cancelQueries({ queryKey: ["workspaces", change.workspace_id] });
      queryClient.removeQueries({ queryKey: ["workspaces", change.workspace_id] });
      if (currentWorkspaceId() === change.workspace_id && personalId) switchTo(personalId);
      if (!leavingOnPurpose.delete(change.workspace_id) && known) {
        toast({ title: removedMessage(known.name), variant: "warning" });
      }
      void queryClient.invalidateQueries({ queryKey: workspaceKeys.list });
      return;
    }
    void queryClient.invalidateQueries({ queryKey: workspaceKeys.all });
  });
}
