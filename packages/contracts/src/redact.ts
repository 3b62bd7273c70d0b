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
 * plain objects and arrays, and secrets inside its strings too (`redactText`). Class instances (requests, errors, dates) are left to the
 * logger's serializers. Shared by the server's logger and the web app's log buffer.
 */
export function redactDeep(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === "string") return redactText(value);
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

/**
 * Paths whose next segment is a secret token: share links (page and API) and invitations.
 * Logs and analytics keep the route, never the token (decision 051).
 */
export const TOKEN_PATH_PREFIXES = ["/api/share/", "/share/", "/api/invitations/"] as const;

/** Query parameters that carry secrets besides the redacted keys: an invitation, an OAuth code. */
const SECRET_QUERY_KEYS = ["invite", "code"] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
const TOKEN_SEGMENT = new RegExp(
  `(${TOKEN_PATH_PREFIXES.map((p) => escapeRegExp(p)).join("|")})[^/?#\\s"'<>]+`,
  "g",
);
const KEY_NAMES = [...REDACTED_LOG_KEYS]
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join("|");
/** `key=value`, `key: value`, `"key":"value"` of a redacted key, in any text (query strings too). */
const KEY_VALUE = new RegExp(
  `((?<![A-Za-z0-9_-])["']?(?:${KEY_NAMES})["']?\\s*[:=]\\s*["']?)(?!\\[REDACTED\\])[^\\s"'&,;)}\\]]+`,
  "gi",
);
const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_QUERY_KEYS.join("|")})=)[^&#\\s"'<>]+`, "gi");
const BEARER = /\b(Bearer|Basic)\s+(?!\[REDACTED\])[A-Za-z0-9._~+/=-]+/gi;

/**
 * `text` with what looks like a secret replaced: token path segments, values of redacted
 * keys written as `key=value` or `key: value` (so query strings of URLs in the text too),
 * secret query parameters and Authorization-style credentials. A client's log message is
 * free text: this is how its secrets stay out of the log.
 */
export function redactText(text: string): string {
  // Credentials first: `Authorization: Bearer x` must not lose only the word "Bearer".
  return text
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(TOKEN_SEGMENT, `$1${REDACTED}`)
    .replace(KEY_VALUE, `$1${REDACTED}`)
    .replace(SECRET_QUERY, `$1${REDACTED}`);
}

/**
 * A URL (absolute or a path) for a log or analytics: token path segments replaced, and the
 * query-string values of redacted keys and secret parameters.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  const path = (q < 0 ? url : url.slice(0, q)).replace(TOKEN_SEGMENT, `$1${REDACTED}`);
  if (q < 0) return path;
  const hash = url.indexOf("#", q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const parts = query.split("&").map((part) => {
    const eq = part.indexOf("=");
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, " "));
    } catch {
      // A malformed escape: the key as written.
    }
    const secret = isRedactedKey(key) || (SECRET_QUERY_KEYS as readonly string[]).includes(key);
    return secret ? `${rawKey}=${encodeURIComponent(REDACTED)}` : part;
  });
  return `${path}?${parts.join("&")}${hash < 0 ? "" : url.slice(hash)}`;
}
