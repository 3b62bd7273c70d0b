import type { TWorkspace } from "@cohort/contracts";
import { useEffect, useSyncExternalStore } from "react";
import { useAuth } from "../../auth/use-auth";
import { useCurrentWorkspace } from "./current-workspace";
import { currentWorkspaceId, subscribeCurrentWorkspace } from "./workspace-store";

/**
 * Which wallet pays for what is on screen (decision 054). A session is paid from its own
 * workspace (decision 040), which need not be the one in view: a personal session opened from
 * a link while a team is in view is paid from the personal balance. The open conversation
 * names its session's workspace here; the shell's balance, its toasts and the refusals read
 * it. Outside a session it is the workspace in view.
 */
type Listener = () => void;

let sessionWorkspaceId: string | null = null;
const listeners = new Set<Listener>();

function setSessionWorkspace(id: string | null): void {
  if (id === sessionWorkspaceId) return;
  sessionWorkspaceId = id;
  for (const listener of listeners) listener();
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function snapshot(): string | null {
  return sessionWorkspaceId;
}

/** Called by the open conversation with its session's workspace (undefined while loading). */
export function useShowSessionWorkspace(workspaceId: string | undefined): void {
  useEffect(() => {
    if (workspaceId === undefined) return;
    setSessionWorkspace(workspaceId);
    return () => setSessionWorkspace(null);
  }, [workspaceId]);
}

export interface ChargedWorkspace {
  /** The workspace that pays; null until the list has loaded. */
  workspace: TWorkspace | null;
  /** A team workspace pays from its pool; null: the personal balance pays. */
  team: TWorkspace | null;
  /** The open session is in another workspace than the one in view. */
  elsewhere: boolean;
  /**
   * A team may pay but the list that says so has not loaded: showing the personal balance
   * meanwhile would show the wrong wallet for a moment.
   */
  pending: boolean;
}

/** The wallet that pays for what is on screen: the open session's workspace, else the one in view. */
export function useChargedWorkspace(): ChargedWorkspace {
  const { workspace: inView, workspaces, settled } = useCurrentWorkspace();
  const { user } = useAuth();
  const sessionWorkspace = useSyncExternalStore(subscribe, snapshot, snapshot);
  const chosenTeam = useSyncExternalStore(
    subscribeCurrentWorkspace,
    currentWorkspaceId,
    currentWorkspaceId,
  );
  const personal = sessionWorkspace !== null && sessionWorkspace === user?.id;
  const found =
    sessionWorkspace === null ? undefined : workspaces.find((w) => w.id === sessionWorkspace);
  // The session's own workspace once known; the personal balance for the user's own id.
  const workspace =
    found ?? (personal ? (workspaces.find((w) => w.kind === "personal") ?? null) : inView);
  const pending = !settled && !personal && (sessionWorkspace !== null || chosenTeam !== null);
  return {
    workspace,
    team: !personal && workspace?.kind === "team" ? workspace : null,
    elsewhere: sessionWorkspace !== null && inView !== null && sessionWorkspace !== inView.id,
    pending,
  };
}
