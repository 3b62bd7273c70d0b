import { NAVIGATION_HISTORY_ENTRIES } from "@cohort/contracts";
import {
  readStorage,
  STORAGE_KEYS,
  type StorageLike,
  writeStorage,
} from "../lib/storage/browser-storage";

/** The data model: the navigation history in sessionStorage, the last 20 entries. */
export interface NavigationEntry {
  path: string;
  /** Epoch ms. */
  time: number;
  search: string;
  state: unknown;
}

export function appendNavigationEntry(
  history: readonly NavigationEntry[],
  entry: NavigationEntry,
): NavigationEntry[] {
  return [...history, entry].slice(-NAVIGATION_HISTORY_ENTRIES);
}

function isEntry(value: unknown): value is NavigationEntry {
  if (typeof value !== "object" || value === null) return false;
  const { path, time, search } = value as Partial<NavigationEntry>;
  return typeof path === "string" && typeof time === "number" && typeof search === "string";
}

export function readNavigationHistory(session: StorageLike | null): NavigationEntry[] {
  const raw = readStorage(session, STORAGE_KEYS.navigationHistory);
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    return [];
  }
}

/** A location state that cannot be stored (a function, a cycle) is kept as null. */
function storableState(state: unknown): unknown {
  try {
    JSON.stringify(state);
    return state ?? null;
  } catch {
    return null;
  }
}

export function recordNavigation(session: StorageLike | null, entry: NavigationEntry): void {
  const next = appendNavigationEntry(readNavigationHistory(session), {
    ...entry,
    state: storableState(entry.state),
  });
  writeStorage(session, STORAGE_KEYS.navigationHistory, JSON.stringify(next));
}
