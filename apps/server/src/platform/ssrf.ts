import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { Readable } from "node:stream";
import ipaddr from "ipaddr.js";

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

// --- Address classes (parsing by ipaddr.js; decision 017 lists the metadata addresses) ---

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];
type Special = Exclude<AddressClass, "public">;

const cidr = (text: string): Range => ipaddr.parseCIDR(text);

/**
 * Cloud metadata and host-agent endpoints, refused whatever USER_BASE_URL_ALLOWED_NETWORKS
 * says: AWS/GCP/Azure/OpenStack IMDS, AWS ECS task metadata and EKS pod identity, Alibaba
 * Cloud's metadata, Azure's WireServer (a public address!) and AWS IMDS over IPv6. Every
 * other form of them (IPv4-mapped, NAT64, 6to4, IPv4-compatible) is reduced to the IPv4
 * address first, so it lands here too.
 */
export const METADATA_ADDRESSES = [
  "169.254.169.254",
  "169.254.170.2",
  "169.254.170.23",
  "100.100.100.200",
  "168.63.129.16",
  "fd00:ec2::254",
] as const;
const METADATA = METADATA_ADDRESSES.map((a) => cidr(`${a}/${a.includes(":") ? 128 : 32}`));

/** Special-purpose IPv4 ranges (RFC 6890 and friends). */
const IPV4_RANGES: readonly [Range, Special][] = (
  [
    ["0.0.0.0/8", "unspecified"],
    ["10.0.0.0/8", "private"],
    ["100.64.0.0/10", "carrier-grade-nat"],
    ["127.0.0.0/8", "loopback"],
    ["169.254.0.0/16", "link-local"],
    ["172.16.0.0/12", "private"],
    ["192.0.0.0/24", "reserved"],
    ["192.0.2.0/24", "reserved"],
    ["192.88.99.0/24", "reserved"],
    ["192.168.0.0/16", "private"],
    ["198.18.0.0/15", "reserved"],
    ["198.51.100.0/24", "reserved"],
    ["203.0.113.0/24", "reserved"],
    ["224.0.0.0/4", "multicast"],
    ["240.0.0.0/4", "reserved"],
  ] as const
).map(([range, kind]) => [cidr(range), kind]);

/** Special-purpose IPv6 ranges; anything outside 2000::/3 is reserved as well. */
const IPV6_RANGES: readonly [Range, Special][] = (
  [
    ["::/128", "unspecified"],
    ["::1/128", "loopback"],
    ["100::/64", "reserved"], // discard-only
    ["2001::/23", "reserved"], // IETF protocol assignments, Teredo
    ["2001:db8::/32", "reserved"], // documentation
    ["64:ff9b:1::/48", "private"], // a private network's own NAT64 translator (RFC 8215)
    ["fc00::/7", "private"], // unique local
    ["fe80::/10", "link-local"],
    ["fec0::/10", "private"], // site-local (deprecated)
    ["ff00::/8", "multicast"],
  ] as const
).map(([range, kind]) => [cidr(range), kind]);
const GLOBAL_UNICAST = cidr("2000::/3");

function inRange(address: Address, [network, prefix]: Range): boolean {
  return address.kind() === network.kind() && address.match(network, prefix);
}

function v4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 address an IPv6 address reaches, for the forms that carry one: IPv4-mapped
 * (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64's
 * well-known prefix (64:ff9b::/96) and 6to4 (2002::/16, bits 16–47).
 */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const g = address.parts;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && (g5 === 0xffff || (g5 === 0 && (g6 !== 0 || g7 > 1)))) {
    return v4FromParts(g6, g7);
  }
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return v4FromParts(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return v4FromParts(g6, g7);
  }
  if (g0 === 0x2002) return v4FromParts(g1, g2);
  return null;
}

/** Where RFC 6052 puts an IPv4 address in a NAT64 prefix of each length (byte offsets). */
const RFC6052_POSITIONS = [
  [4, 5, 6, 7],
  [5, 6, 7, 9],
  [6, 7, 9, 10],
  [7, 9, 10, 11],
  [9, 10, 11, 12],
  [12, 13, 14, 15],
] as const;
const LOCAL_NAT64 = cidr("64:ff9b:1::/48");

/**
 * A private network's own NAT64 prefix (64:ff9b:1::/48) may carry the IPv4 address at any
 * of RFC 6052's positions, depending on the operator's prefix length: a metadata address at
 * any of them counts as metadata, whatever the allow-list says.
 */
function carriesMetadata(address: ipaddr.IPv6): boolean {
  if (!inRange(address, LOCAL_NAT64)) return false;
  const bytes = address.toByteArray();
  return RFC6052_POSITIONS.some((at) => {
    const v4 = new ipaddr.IPv4(at.map((i) => bytes[i] ?? 0));
    return METADATA.some((range) => inRange(v4, range));
  });
}

function classify(address: Address): AddressClass {
  if (METADATA.some((range) => inRange(address, range))) return "metadata";
  if (address.kind() === "ipv6") {
    if (carriesMetadata(address as ipaddr.IPv6)) return "metadata";
    const inner = embeddedV4(address as ipaddr.IPv6);
    if (inner) return classify(inner);
  }
  const ranges = address.kind() === "ipv4" ? IPV4_RANGES : IPV6_RANGES;
  const special = ranges.find(([range]) => inRange(address, range));
  if (special) return special[1];
  if (address.kind() === "ipv6" && !inRange(address, GLOBAL_UNICAST)) return "reserved";
  return "public";
}

/** Strict parse: only the forms `net.isIP` accepts (no `0x7f.1`, no bare integers). */
function parseAddress(text: string): Address | null {
  const bare = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  return isIP(bare) ? ipaddr.parse(bare) : null;
}

/** What kind of address this is; anything unparseable counts as reserved. */
export function classifyAddress(address: string): AddressClass {
  const parsed = parseAddress(address);
  return parsed ? classify(parsed) : "reserved";
}

// --- Operator allow-list ----------------------------------------------------------------

/** Parses `10.0.0.0/8`, `fd00::/8` or a single address; throws on anything else. */
export function parseNetwork(text: string): Range {
  const [address = "", prefix] = text.trim().split("/");
  const parsed = parseAddress(address);
  if (!parsed) throw new Error(`"${text}" is not an IP address or CIDR range`);
  const max = parsed.kind() === "ipv4" ? 32 : 128;
  const bits = prefix === undefined ? max : Number(prefix);
  if (!/^\d+$/.test(prefix ?? String(max)) || bits > max) {
    throw new Error(`"${text}" has an invalid prefix length`);
  }
  return [parsed, bits];
}

function inNetwork(text: string, network: Range): boolean {
  const parsed = parseAddress(text);
  if (!parsed) return false;
  // An IPv4-mapped address is matched as the IPv4 address it is.
  const address =
    parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
      ? (parsed as ipaddr.IPv6).toIPv4Address()
      : parsed;
  return inRange(address, network);
}

// --- URL checks -------------------------------------------------------------------------

export class UrlNotAllowedError extends Error {
  constructor(
    /** Why, for logs and tests: a class of address, or scheme / credentials / dns. */
    readonly reason:
      | AddressClass
      | "scheme"
      | "credentials"
      | "query"
      | "dns"
      | "invalid"
      | "redirects",
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
  /**
   * checkUrl for a base URL a user saves: also refuses a query string or fragment, which
   * would change where every request built on it goes (or leak into logs).
   */
  checkBaseUrl(raw: string): Promise<CheckedUrl>;
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

  async function checkBaseUrl(raw: string): Promise<CheckedUrl> {
    if (/[?#]/.test(raw)) {
      throw new UrlNotAllowedError(
        "query",
        "Leave any ?query or #fragment out of the base URL; give the server's address and path only.",
      );
    }
    return checkUrl(raw);
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

  return { checkUrl, checkBaseUrl, addressAllowed, fetch: guardedFetch as typeof fetch };
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
