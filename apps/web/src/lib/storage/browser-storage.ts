/**
 * Browser storage keys of the data model. Only non-secret state lives here: the session itself is an
 * httpOnly cookie the app never sees (docs/architecture.md, "Trust rules").
 */
export const STORAGE_KEYS = {
  /** localStorage: marks a signed-in browser; never a bearer secret. */
  authToken: "authToken",
  /** localStorage: the cached user profile. */
  userProfile: "userProfile",
  /** sessionStorage: the same profile, scoped to the tab. */
  sessionProfile: "userProfile",
  /** sessionStorage: the cached CSRF token. */
  csrfToken: "csrfToken",
  /** sessionStorage: the last navigation entries (path, time, search, state). */
  navigationHistory: "navigationHistory",
  /** sessionStorage: login redirect-loop guard state. */
  loginRedirectCount: "loginRedirectCount",
  lastLoginRedirect: "lastLoginRedirect",
  /** localStorage: the workspace last chosen in the switcher (an id, checked against the list). */
  currentWorkspace: "cohort.workspace",
} as const;

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Returns the named web storage, or null where it does not exist or throws on access
 * (Node, sandboxed iframes, some private-browsing modes).
 */
export function getBrowserStorage(kind: "localStorage" | "sessionStorage"): StorageLike | null {
  try {
    if (typeof window === "undefined") return null;
    const storage = window[kind];
    const probe = "__cohort_probe__";
    storage.setItem(probe, probe);
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

/** Reads a key, treating a storage that throws as empty. */
export function readStorage(storage: StorageLike | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(storage: StorageLike | null, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // A full or blocked storage only loses a cache; the in-memory value still works.
  }
}

/** Removes a key only when it is set, so no needless storage event reaches other tabs. */
export function removeStorageIfPresent(storage: StorageLike | null, key: string): boolean {
  if (readStorage(storage, key) === null) return false;
  try {
    storage?.removeItem(key);
    return true;
  } catch {
    return false;
  }
}
