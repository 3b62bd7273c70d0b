/**
 * PostgreSQL's text and jsonb cannot hold U+0000. Input that carries one is refused (400,
 * platform/nul-guard.ts); text that models produce is cleaned before anything stores it.
 */
const NUL = "\u0000";

export function withoutNul(text: string): string {
  return text.includes(NUL) ? text.replaceAll(NUL, "") : text;
}

/** The same value with every string inside it cleaned (model output parsed as JSON). */
export function withoutNulDeep<T>(value: T): T {
  if (typeof value === "string") return withoutNul(value) as T;
  if (Array.isArray(value)) return value.map(withoutNulDeep) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [withoutNul(key), withoutNulDeep(inner)]),
    ) as T;
  }
  return value;
}

/**
 * JSON text cannot carry U+0000 raw (JSON.parse refuses control characters), only as the
 * escape `\u0000`: a parsed body whose text has no such escape holds no NUL, and the guard
 * need not walk it (the walk is most of a large body's cost). A `\\u0000` (an escaped
 * backslash) only costs the walk.
 */
const nulFreeBodies = new WeakSet<object>();

export function noteParsedJson(text: string, value: unknown): void {
  if (value !== null && typeof value === "object" && !text.includes("\\u0000")) {
    nulFreeBodies.add(value);
  }
}

export function isKnownNulFree(value: unknown): boolean {
  return value !== null && typeof value === "object" && nulFreeBodies.has(value);
}

/** The path (`a.b.0`) of the first string holding U+0000, keys included, or null. */
export function findNul(value: unknown, path: readonly (string | number)[] = []): string | null {
  if (typeof value === "string") {
    return value.includes(NUL) ? path.join(".") || "(root)" : null;
  }
  if (Array.isArray(value)) {
    for (const [i, inner] of value.entries()) {
      const found = findNul(inner, [...path, i]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes(NUL)) return [...path, key].join(".");
      const found = findNul(inner, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}
