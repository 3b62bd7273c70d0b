import type { StorageLike } from "../lib/storage/browser-storage";

/** A `localStorage` stand-in in memory that also records which keys were removed. */
export class MemoryStorage implements StorageLike {
  readonly map = new Map<string, string>();
  readonly removed: string[] = [];
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.removed.push(key);
    this.map.delete(key);
  }
}
