import type { TWorkspace } from "@cohort/contracts";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
} from "react";
import { useLocation, useNavigate } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { useAgreementState } from "../agreement/agreement-gate";
import { useWorkspaceChanged } from "./use-workspace-changed";
import {
  currentWorkspaceId,
  setCurrentWorkspaceId,
  subscribeCurrentWorkspace,
} from "./workspace-store";
import { useWorkspaceList, workspaceKeys } from "./workspaces-api";

export interface CurrentWorkspace {
  /** The workspace in view; null until the list has loaded (or when it could not be). */
  workspace: TWorkspace | null;
  workspaces: readonly TWorkspace[];
  /** Shows another workspace: its sessions, documents, memories, templates and credits. */
  switchTo(id: string): void;
  /**
   * False while a remembered team is not yet checked against the list: pages wait, so no list
   * loads twice. The personal workspace needs no check, so its pages never wait for the list.
   */
  ready: boolean;
  /** The list has answered (or failed): until then a team in view is not known yet. */
  settled: boolean;
}

/**
 * Outside the provider (unit tests of single screens) the app behaves as before workspaces:
 * the personal workspace, nothing to switch to.
 */
const CurrentWorkspaceContext = createContext<CurrentWorkspace>({
  workspace: null,
  workspaces: [],
  switchTo: () => undefined,
  ready: true,
  settled: true,
});

export function useCurrentWorkspace(): CurrentWorkspace {
  return useContext(CurrentWorkspaceContext);
}

/**
 * The lists that show a workspace, by query-key prefix. A switch resets them (drops the data
 * and asks again), so no list of the previous workspace stays on screen for a moment. What is
 * addressed by its own id (a session's detail and documents, a run's proposals) is left
 * alone: the server finds its workspace, and asking again for a page being left could only
 * answer 404 once access is gone.
 */
export const WORKSPACE_SCOPED_KEYS: readonly (readonly unknown[])[] = [
  ["sessions", "list"],
  ["sessions", "recent"],
  ["documents", "list"],
  ["documents", "search"],
  ["memory", "list"],
  ["templates"],
  ["billing"],
];

export function resetWorkspaceScopedQueries(queryClient: QueryClient): void {
  for (const queryKey of WORKSPACE_SCOPED_KEYS) void queryClient.resetQueries({ queryKey });
}

const NO_WORKSPACES: readonly TWorkspace[] = [];

/** The personal workspace is the one whose id is the user's (decision 040). */
function pickCurrent(
  workspaces: readonly TWorkspace[],
  chosenId: string | null,
  userId: string | undefined,
): TWorkspace | null {
  const chosen = chosenId === null ? undefined : workspaces.find((w) => w.id === chosenId);
  return (
    chosen ??
    workspaces.find((w) => w.kind === "personal" && (userId === undefined || w.id === userId)) ??
    workspaces.find((w) => w.kind === "personal") ??
    null
  );
}

/**
 * Loads the user's workspaces and keeps the chosen one (remembered in localStorage). Sits
 * inside the agreement gate: until the agreement is accepted there is nothing to load.
 */
export function CurrentWorkspaceProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Product calls answer 403 until the agreement is accepted (accepting reloads the page).
  const agreement = useAgreementState();
  const list = useWorkspaceList(user !== null && agreement === "ok");
  const chosenId = useSyncExternalStore(
    subscribeCurrentWorkspace,
    currentWorkspaceId,
    currentWorkspaceId,
  );
  const workspaces = list.data ?? NO_WORKSPACES;
  const workspace = pickCurrent(workspaces, chosenId, user?.id);
  const stale = list.data !== undefined && chosenId !== null && workspace?.id !== chosenId;

  // A remembered team the user is no longer in (or another account's) falls back to personal
  // before any page asks for its lists (pages wait for `ready`).
  useEffect(() => {
    if (stale) setCurrentWorkspaceId(null);
  }, [stale]);

  const switchTo = useCallback(
    (id: string) => {
      const target = queryClient
        .getQueryData<TWorkspace[]>(workspaceKeys.list)
        ?.find((w) => w.id === id);
      const next = !target || target.kind === "personal" ? null : id;
      if (next === currentWorkspaceId()) return;
      setCurrentWorkspaceId(next);
      // An open session belongs to the workspace being left.
      if (pathname.startsWith("/chat/")) navigate("/chat");
      resetWorkspaceScopedQueries(queryClient);
    },
    [queryClient, navigate, pathname],
  );

  useWorkspaceChanged(switchTo, user?.id);

  const value = useMemo<CurrentWorkspace>(
    () => ({
      workspace,
      workspaces,
      switchTo,
      ready: chosenId === null || (list.isSuccess && !stale) || list.isError,
      settled: list.isSuccess || list.isError,
    }),
    [workspace, workspaces, switchTo, chosenId, list.isSuccess, list.isError, stale],
  );
  return (
    <CurrentWorkspaceContext.Provider value={value}>{children}</CurrentWorkspaceContext.Provider>
  );
}
