import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";

/**
 * The guard for addresses users give us (the base URL of their own OpenAI-compatible
 * server): Cohort's server must never become a way into its own network. A URL passes only
 * when it is http(s) and every address its host resolves to is public; the connection is
 * then made to exactly the addresses that were checked (no second DNS answer can slip in a
 * private one), and every redirect is checked the same way before it is followed.
 */

declare module "fastify" {
  interface FastifyInstance {
    /** Checks and calls user-supplied URLs (platform/ssrf.ts). */
    ssrf: SsrfGuard;
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS for the guard; tests inject a fake one so no test depends on real DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export type AddressClass =
  | "public"
  | "unspecified"
  | "loopback"
  | "private"
  | "carrier-grade-nat"
  | "link-local"
  | "metadata"
  | "multicast"
  | "reserved";

const CLASS_WORDS: Record<Exclude<AddressClass, "public">, string> = {
  unspecified: "an unspecified address",
  loopback: "a loopback address",
  private: "a private network address",
  "carrier-grade-nat": "a carrier-grade NAT address",
  "link-local": "a link-local address",
  metadata: "a cloud metadata address",
  multicast: "a multicast address",
  reserved: "a reserved or special-purpose address",
};

// --- IPv4 -------------------------------------------------------------------------------

function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

function ipv4Text(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join(".");
}

function inV4(value: number, base: string, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  const start = parseIPv4(base) as number;
  return value >= start && value < start + size;
}

/** Special-purpose IPv4 ranges (RFC 6890 and friends), most specific first. */
const IPV4_RANGES: readonly [string, number, Exclude<AddressClass, "public">][] = [
  ["169.254.169.254", 32, "metadata"],
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade-nat"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "reserved"],
  ["203.0.113.0", 24, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

function classifyV4(value: number): AddressClass {
  for (const [base, prefix, kind] of IPV4_RANGES) {
    if (inV4(value, base, prefix)) return kind;
  }
  return "public";
}

// --- IPv6 -------------------------------------------------------------------------------

/** Eight 16-bit groups, or null. Accepts `::`, an embedded dotted quad and a zone id. */
export function parseIPv6(text: string): number[] | null {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  const lastColon = s.lastIndexOf(":");
  if (lastColon < 0) return null;
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIPv4(tail);
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [
    ...head,
    ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"),
    ...rest,
  ];
  const out: number[] = [];
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    out.push(Number.parseInt(group, 16));
  }
  return out;
}

function embeddedV4(high: number, low: number): number {
  return high * 65536 + low;
}

function classifyV6(g: number[]): AddressClass {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return "unspecified";
  if (zeroTo(7) && g7 === 1) return "loopback";
  // ::ffff:a.b.c.d (IPv4-mapped), ::a.b.c.d (IPv4-compatible) and ::ffff:0:a.b.c.d
  // (IPv4-translated) all reach the IPv4 address inside them.
  if (zeroTo(5) && (g5 === 0xffff || g5 === 0)) return classifyV4(embeddedV4(g6, g7));
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return classifyV4(embeddedV4(g6, g7));
  // NAT64: the well-known prefix 64:ff9b::/96 reaches the IPv4 address in its last 32 bits;
  // the local-use prefix 64:ff9b:1::/48 (RFC 8215) is a private network's own translator.
  if (g0 === 0x64 && g1 === 0xff9b) {
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyV4(embeddedV4(g6, g7));
    if (g2 === 1) return "private";
  }
  // 6to4 (2002::/16) carries an IPv4 address in bits 16–47.
  if (g0 === 0x2002) return classifyV4(embeddedV4(g1, g2));
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return "reserved"; // discard-only
  if (g0 === 0x2001 && g1 < 0x200) return "reserved"; // IETF protocol assignments, Teredo
  if (g0 === 0x2001 && g1 === 0xdb8) return "reserved"; // documentation
  if ((g0 & 0xfe00) === 0xfc00) return "private"; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return "link-local"; // fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return "private"; // site-local (deprecated) fec0::/10
  if ((g0 & 0xff00) === 0xff00) return "multicast"; // ff00::/8
  // Only 2000::/3 is global unicast.
  if ((g0 & 0xe000) !== 0x2000) return "reserved";
  return "public";
}

/** What kind of address this is; anything unparseable counts as reserved. */
export function classifyAddress(address: string): AddressClass {
  const kind = isIP(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  if (kind === 4) return classifyV4(parseIPv4(address) as number);
  if (kind === 6) {
    const groups = parseIPv6(address);
    return groups ? classifyV6(groups) : "reserved";
  }
  return "reserved";
}

// --- Operator allow-list ----------------------------------------------------------------

interface Network {
  family: 4 | 6;
  bits: number[];
  prefix: number;
}

function bitsOf(address: string): { family: 4 | 6; bits: number[] } | null {
  const v4 = parseIPv4(address);
  if (v4 !== null) {
    return { family: 4, bits: Array.from({ length: 32 }, (_, i) => (v4 >>> (31 - i)) & 1) };
  }
  const v6 = parseIPv6(address);
  if (!v6) return null;
  // An IPv4-mapped address is matched as the IPv4 address it is.
  if (v6.slice(0, 5).every((x) => x === 0) && v6[5] === 0xffff) {
    return bitsOf(ipv4Text(embeddedV4(v6[6] ?? 0, v6[7] ?? 0)));
  }
  return {
    family: 6,
    bits: v6.flatMap((group) => Array.from({ length: 16 }, (_, i) => (group >>> (15 - i)) & 1)),
  };
}

/** Parses `10.0.0.0/8`, `fd00::/8` or a single address; throws on anything else. */
export function parseNetwork(cidr: string): Network {
  const [address = "", prefixText] = cidr.trim().split("/");
  const parsed = bitsOf(address);
  if (!parsed) throw new Error(`"${cidr}" is not an IP address or CIDR range`);
  const max = parsed.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max) {
    throw new Error(`"${cidr}" has an invalid prefix length`);
  }
  return { family: parsed.family, bits: parsed.bits, prefix };
}

function inNetwork(address: string, network: Network): boolean {
  const parsed = bitsOf(address);
  if (!parsed || parsed.family !== network.family) return false;
  for (let i = 0; i < network.prefix; i++) {
    if (parsed.bits[i] !== network.bits[i]) return false;
  }
  return true;
}

// --- URL checks -------------------------------------------------------------------------

export class UrlNotAllowedError extends Error {
  constructor(
    /** Why, for logs and tests: a class of address, or scheme / credentials / dns. */
    readonly reason: AddressClass | "scheme" | "credentials" | "dns" | "invalid" | "redirects",
    message: string,
  ) {
    super(message);
    this.name = "UrlNotAllowedError";
  }
}

export interface CheckedUrl {
  url: URL;
  /** The addresses the connection may use: every one of them was checked. */
  addresses: ResolvedAddress[];
}

export interface SsrfGuardOptions {
  resolve?: HostResolver;
  /**
   * Networks a user's URL may reach although they are not public (USER_BASE_URL_ALLOWED_NETWORKS,
   * e.g. a LAN model server of a self-hosted installation). Cloud metadata stays refused.
   */
  allowedNetworks?: readonly string[];
  /** Redirects followed, each checked again; default 3. */
  maxRedirects?: number;
}

export interface SsrfGuard {
  /** Throws UrlNotAllowedError unless the URL is http(s) and resolves only to allowed addresses. */
  checkUrl(raw: string | URL): Promise<CheckedUrl>;
  /** Whether a single address may be called. */
  addressAllowed(address: string): { allowed: boolean; kind: AddressClass };
  /** A fetch for user-supplied URLs: checked, pinned to the checked addresses, redirects checked. */
  fetch: typeof fetch;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Credentials meant for one host never follow a redirect to another. */
const CREDENTIAL_HEADERS = ["authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie"];

export function createSsrfGuard(options: SsrfGuardOptions = {}): SsrfGuard {
  const resolve = options.resolve ?? systemResolver;
  const allowed = (options.allowedNetworks ?? []).map(parseNetwork);
  const maxRedirects = options.maxRedirects ?? 3;

  function addressAllowed(address: string) {
    const kind = classifyAddress(address);
    if (kind === "public") return { allowed: true, kind };
    if (kind === "metadata") return { allowed: false, kind };
    return { allowed: allowed.some((network) => inNetwork(address, network)), kind };
  }

  async function checkUrl(raw: string | URL): Promise<CheckedUrl> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UrlNotAllowedError("invalid", "That is not a valid address.");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new UrlNotAllowedError("scheme", "Only http:// and https:// addresses can be used.");
    }
    if (url.username || url.password) {
      throw new UrlNotAllowedError(
        "credentials",
        "Leave the user name and password out of the address; put the key in the key field.",
      );
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    let addresses: ResolvedAddress[];
    if (isIP(host)) {
      addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
    } else {
      try {
        addresses = await resolve(host);
      } catch {
        addresses = [];
      }
      if (addresses.length === 0) {
        throw new UrlNotAllowedError("dns", `${host} could not be found (no DNS answer).`);
      }
    }
    // Every answer must pass: a name that resolves to one public and one private address
    // would otherwise let the connection pick the private one.
    for (const { address } of addresses) {
      const verdict = addressAllowed(address);
      if (!verdict.allowed) {
        const words = CLASS_WORDS[verdict.kind as Exclude<AddressClass, "public">];
        throw new UrlNotAllowedError(
          verdict.kind,
          `${host} ${isIP(host) ? "is" : "points to"} ${words}, which Cohort does not call. Use your server's public address.`,
        );
      }
    }
    return { url, addresses };
  }

  const guardedFetch = async (
    input: string | URL | Request,
    init: RequestInit = {},
  ): Promise<Response> => {
    const request = await normalizeRequest(input, init);
    let url = new URL(request.url);
    for (let hop = 0; ; hop++) {
      const checked = await checkUrl(url);
      const response = await send(checked, request);
      if (!REDIRECT_STATUSES.has(response.status) || request.redirect === "manual") {
        return response;
      }
      const location = response.headers.get("location");
      if (!location) return response;
      await response.body?.cancel();
      if (request.redirect === "error" || hop >= maxRedirects) {
        throw new UrlNotAllowedError("redirects", "The server redirected too many times.");
      }
      const next = new URL(location, url);
      if (next.origin !== url.origin) {
        for (const name of CREDENTIAL_HEADERS) request.headers.delete(name);
      }
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && request.method === "POST")
      ) {
        request.method = "GET";
        request.body = undefined;
        request.headers.delete("content-type");
        request.headers.delete("content-length");
      }
      url = next;
    }
  };

  return { checkUrl, addressAllowed, fetch: guardedFetch as typeof fetch };
}

// --- The fetch itself -------------------------------------------------------------------

interface PlainRequest {
  url: string;
  method: string;
  headers: Headers;
  body: Buffer | undefined;
  signal: AbortSignal | undefined;
  redirect: NonNullable<RequestInit["redirect"]>;
}

async function normalizeRequest(
  input: string | URL | Request,
  init: RequestInit,
): Promise<PlainRequest> {
  const base = input instanceof Request ? input : undefined;
  const headers = new Headers(init.headers ?? base?.headers);
  const rawBody = init.body !== undefined ? init.body : base?.body;
  let body: Buffer | undefined;
  if (rawBody === null || rawBody === undefined) body = undefined;
  else if (typeof rawBody === "string") body = Buffer.from(rawBody);
  else if (rawBody instanceof URLSearchParams) body = Buffer.from(rawBody.toString());
  else if (rawBody instanceof ArrayBuffer) body = Buffer.from(rawBody);
  else if (ArrayBuffer.isView(rawBody)) {
    body = Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  } else if (rawBody instanceof Blob) body = Buffer.from(await rawBody.arrayBuffer());
  else if (rawBody instanceof ReadableStream) {
    body = Buffer.from(await new Response(rawBody).arrayBuffer());
  } else throw new TypeError("Unsupported request body");
  return {
    url: base ? base.url : String(input),
    method: (init.method ?? base?.method ?? "GET").toUpperCase(),
    headers,
    body,
    signal: init.signal ?? base?.signal ?? undefined,
    redirect: init.redirect ?? base?.redirect ?? "follow",
  };
}

function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = typeof options === "object" ? options.family : options;
    const usable = addresses.filter((a) => !family || family === a.family);
    const list = usable.length > 0 ? usable : addresses;
    if (typeof options === "object" && options.all) {
      (callback as (e: null, list: readonly ResolvedAddress[]) => void)(null, list);
      return;
    }
    const first = list[0] as ResolvedAddress;
    callback(null, first.address, first.family);
  };
}

function send(checked: CheckedUrl, request: PlainRequest): Promise<Response> {
  const { url, addresses } = checked;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // Plain bodies only: a compressed answer would need decoding that fetch does itself.
  headers["accept-encoding"] = "identity";
  if (request.body) headers["content-length"] = String(request.body.length);
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<Response>((resolve, reject) => {
    if (request.signal?.aborted) {
      reject(request.signal.reason ?? new DOMException("Aborted", "AbortError"));
      return;
    }
    const req = transport.request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: request.method,
      headers,
      // A literal IP in the URL is never looked up (it was checked as is); a name resolves to
      // the checked addresses only. No pooled socket: each connection is made here.
      lookup: pinnedLookup(addresses),
      agent: false,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    req.on("response", (res) => {
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
        else if (value !== undefined) responseHeaders.set(name, value);
      }
      const status = res.statusCode ?? 502;
      const empty = [204, 205, 304].includes(status) || request.method === "HEAD";
      if (empty) res.resume();
      resolve(
        new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
          status,
          statusText: res.statusMessage ?? "",
          headers: responseHeaders,
        }),
      );
    });
    req.on("error", (error) => {
      if (error.name === "AbortError" || request.signal?.aborted) {
        reject(request.signal?.reason ?? error);
        return;
      }
      // The shape fetch itself rejects with, which the AI SDK maps to "cannot connect".
      reject(new TypeError("fetch failed", { cause: error }));
    });
    req.end(request.body);
  });
}
