import { readCappedBody } from "../../platform/read-capped-body";
import type { SsrfGuard } from "../../platform/ssrf";
import { UrlNotAllowedError } from "../../platform/ssrf";

/**
 * One page fetched for read_url through the SSRF guard (platform/ssrf.ts): every hop is
 * checked and connected to the addresses that were checked, here one hop at a time so the
 * final address is known (it is the source read_url cites), with a byte cap on the body and
 * one deadline for the whole fetch.
 */

export interface FetchedPage {
  /** Where the content came from after redirects. */
  url: URL;
  status: number;
  statusText: string;
  /** The media type without parameters, lower case; "" when the server sent none. */
  mediaType: string;
  /** The charset parameter of Content-Type, if any. */
  charset: string | undefined;
  body: Uint8Array;
  /** The answer had more than maxBytes; only the first maxBytes were read. */
  truncated: boolean;
}

export type FetchFailure =
  | { kind: "refused"; reason: UrlNotAllowedError["reason"]; message: string }
  | { kind: "timeout"; message: string }
  | { kind: "network"; message: string }
  | { kind: "encoding"; message: string };

export class PageFetchError extends Error {
  constructor(readonly failure: FetchFailure) {
    super(failure.message);
    this.name = "PageFetchError";
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
export const READ_URL_MAX_REDIRECTS = 5;
const USER_AGENT = "CohortBot/1.0 (read_url; +https://github.com/cohort)";
const ACCEPT =
  "text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.9,text/*;q=0.8,*/*;q=0.1";

/** What the guard's reasons mean to the person and the model reading the refusal. */
const REFUSALS: Record<UrlNotAllowedError["reason"], string> = {
  loopback: "is a loopback address (this server itself)",
  private: "is on a private network",
  "link-local": "is a link-local address",
  "carrier-grade-nat": "is a carrier-grade NAT address",
  unspecified: "is an unspecified address",
  multicast: "is a multicast address",
  reserved: "is a reserved or special-purpose address",
  metadata: "is a cloud metadata address",
  public: "is public",
  scheme: "is not an http:// or https:// address",
  credentials: "carries a user name or password",
  query: "carries a query",
  dns: "could not be found (no DNS answer)",
  invalid: "is not a valid address",
  redirects: "redirected too many times",
};

function refusal(url: string, error: UrlNotAllowedError): PageFetchError {
  const target = error.reason === "dns" ? new URL(url).hostname : url;
  return new PageFetchError({
    kind: "refused",
    reason: error.reason,
    message: `read_url refused ${target}: it ${REFUSALS[error.reason]}. read_url reads public web pages only.`,
  });
}

export async function fetchPage(
  guard: SsrfGuard,
  raw: string,
  options: { maxBytes: number; timeoutMs: number; signal: AbortSignal },
): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, deadline]);
  const seconds = Math.round(options.timeoutMs / 100) / 10;
  const timedOut = () =>
    new PageFetchError({ kind: "timeout", message: `The page took longer than ${seconds} s.` });

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refusal(raw, new UrlNotAllowedError("invalid", "invalid"));
  }
  try {
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        response = await guard.fetch(url, {
          redirect: "manual",
          signal,
          headers: { "user-agent": USER_AGENT, accept: ACCEPT },
        });
      } catch (error) {
        if (error instanceof UrlNotAllowedError) throw refusal(url.href, error);
        throw error;
      }
      const location = response.headers.get("location");
      if (REDIRECTS.has(response.status) && location) {
        await response.body?.cancel().catch(() => undefined);
        if (hop >= READ_URL_MAX_REDIRECTS) {
          throw refusal(url.href, new UrlNotAllowedError("redirects", "redirects"));
        }
        try {
          url = new URL(location, url);
        } catch {
          throw refusal(location, new UrlNotAllowedError("invalid", "invalid"));
        }
        continue;
      }
      const encoding = (response.headers.get("content-encoding") ?? "identity").toLowerCase();
      if (encoding !== "identity") {
        // Asked for identity (the guard sends Accept-Encoding: identity); a compressed answer
        // anyway is not inflated here, where it could be a decompression bomb.
        await response.body?.cancel().catch(() => undefined);
        throw new PageFetchError({
          kind: "encoding",
          message: `The server sent a ${encoding}-compressed answer although asked for plain content.`,
        });
      }
      const contentType = response.headers.get("content-type") ?? "";
      const [mediaType = "", ...params] = contentType.split(";").map((p) => p.trim());
      const charset = params
        .map((p) => /^charset\s*=\s*"?([^";\s]+)"?$/i.exec(p)?.[1])
        .find((c) => c !== undefined);
      const { body, truncated } = await readCappedBody(response, options.maxBytes);
      return {
        url,
        status: response.status,
        statusText: response.statusText,
        mediaType: mediaType.toLowerCase(),
        charset,
        body,
        truncated,
      };
    }
  } catch (error) {
    if (error instanceof PageFetchError) throw error;
    if (options.signal.aborted) throw options.signal.reason ?? error;
    if (deadline.aborted) throw timedOut();
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const code = (cause as { code?: unknown }).code;
    throw new PageFetchError({
      kind: "network",
      message: `The page could not be fetched (${typeof code === "string" ? code : "network error"}).`,
    });
  }
}
