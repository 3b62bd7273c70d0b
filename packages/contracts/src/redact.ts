import { REDACTED, REDACTED_LOG_KEYS } from "./constants";

const redactedKeys = new Set<string>(REDACTED_LOG_KEYS.map((k) => k.toLowerCase()));

export function isRedactedKey(key: string): boolean {
  return redactedKeys.has(key.toLowerCase());
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Returns a copy of `value` with the value of every redacted key replaced, at any depth of
 * plain objects and arrays. Class instances (requests, errors, dates) are left to the
 * logger's serializers. Shared by the server's logger and the web app's log buffer.
 */
export function redactDeep(value: unknown, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, seen));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = isRedactedKey(key) ? REDACTED : redactDeep(item, seen);
  }
  return out;
}
