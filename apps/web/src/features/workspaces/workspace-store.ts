import {
  getBrowserStorage,
  readStorage,
  STORAGE_KEYS,
  writeStorage,
} from "../../lib/storage/browser-storage";

/**
 * The id of the workspace the app is showing, outside React: the API functions of other
 * features (session list, uploads, memory) read it when they run, so they need no workspace
 * argument threaded through every caller. The provider (current-workspace.tsx) is the only
 * writer; it checks the remembered id against the user's workspaces before trusting it.
 *
 * `null` means "the personal workspace": calls then leave `workspace_id` out, which the
 * server reads as the caller's personal one (decision 040), so nothing changes for users
 * who never open a team.
 */
type Listener = () => void;

let currentId: string | null =
  readStorage(getBrowserStorage("localStorage"), STORAGE_KEYS.currentWorkspace) || null;
const listeners = new Set<Listener>();

/** The team workspace in view, or null for the personal one. */
export function currentWorkspaceId(): string | null {
  return currentId;
}

/** `{ workspace_id }` for a list's query or a create's body; empty in the personal workspace. */
export function workspaceScope(): { workspace_id?: string } {
  return currentId === null ? {} : { workspace_id: currentId };
}

export function setCurrentWorkspaceId(id: string | null): void {
  if (id === currentId) return;
  currentId = id;
  writeStorage(getBrowserStorage("localStorage"), STORAGE_KEYS.currentWorkspace, id ?? "");
  for (const listener of listeners) listener();
}

export function subscribeCurrentWorkspace(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
