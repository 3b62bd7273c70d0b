import { STORAGE_KEYS, type StorageLike } from "../../lib/storage/browser-storage";

export interface StorageRow {
  key: string;
  value: string;
}

/** Keys whose values are shown as a length only: they authorise requests. */
const HIDDEN_KEYS: ReadonlySet<string> = new Set([STORAGE_KEYS.csrfToken]);
const SECRET_LOOKING = /secret|password|api[_-]?key|bearer/i;
const MAX_SHOWN = 160;

/** What a storage holds, safe to put on screen: secrets reduced to their length. */
export function describeStorage(
  storage: (StorageLike & { length: number; key(i: number): string | null }) | null,
): StorageRow[] {
  if (!storage) return [];
  const rows: StorageRow[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key === null) continue;
    const raw = storage.getItem(key) ?? "";
    let value: string;
    if (HIDDEN_KEYS.has(key) || SECRET_LOOKING.test(key))
      value = `(hidden, ${raw.length} characters)`;
    else
      value =
        raw.length > MAX_SHOWN ? `${raw.slice(0, MAX_SHOWN)}… (${raw.length} characters)` : raw;
    rows.push({ key, value });
  }
  return rows.sort((a, b) => a.key.localeCompare(b.key));
}

export function browserStorage(kind: "localStorage" | "sessionStorage"): Storage | null {
  try {
    return window[kind];
  } catch {
    return null;
  }
}
