import { z } from "zod";
import { withoutNul } from "../../platform/nul";
import { readCappedBody } from "../../platform/read-capped-body";
import { parseDocument } from "./extract-text";
import type { WebSearchProviderConfig } from "./web-tools-config";

/**
 * The web search seam (decision 061): SearXNG's JSON API (the self-hosted choice), Brave
 * Search and Tavily, each spoken as its own documented protocol. The operator configures
 * the address (it may be on a private network, as a self-hosted SearXNG usually is), so it is
 * called directly, not through the SSRF guard that protects users' addresses. What comes
 * back is untrusted: parsed leniently, only http(s) links kept, every field capped.
 */

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  published: string | null;
}

export interface SearchProvider {
  kind: WebSearchProviderConfig["kind"];
  /** The provider's name as the person reading results sees it. */
  label: string;
  search(query: string, options: { count: number; signal: AbortSignal }): Promise<SearchResult[]>;
}

/** A search that failed in a way the model (and the lane's row) should hear. */
export class SearchFailedError extends Error {
  constructor(
    readonly reason: "status" | "timeout" | "network" | "response",
    message: string,
  ) {
    super(message);
    this.name = "SearchFailedError";
  }
}

const MAX_RESPONSE_BYTES = 2_000_000;
const MAX_TITLE = 300;
const MAX_SNIPPET = 1_000;
const MAX_URL = 2_048;

const LABELS: Record<WebSearchProviderConfig["kind"], string> = {
  searxng: "SearXNG",
  brave: "Brave Search",
  tavily: "Tavily",
};

export function createSearchProvider(config: WebSearchProviderConfig): SearchProvider {
  const label = LABELS[config.kind];
  const protocol = protocolOf(config, label);
  return {
    kind: config.kind,
    label,
    async search(query, { count, signal }) {
      const { url, init } = protocol.request(query, count);
      return clean(protocol.results(await call(label, url, init, signal)), count);
    },
  };
}

/** One provider's protocol: the request for a query, and the results in its JSON answer. */
interface Protocol {
  request(query: string, count: number): { url: URL; init: RequestInit };
  results(body: unknown): SearchResult[];
}

function protocolOf(config: WebSearchProviderConfig, label: string): Protocol {
  switch (config.kind) {
    case "searxng":
      return {
        request(query) {
          // SEARXNG_URL is the instance's address; /search answers JSON when asked by format.
          const url = new URL("search", config.url.endsWith("/") ? config.url : `${config.url}/`);
          url.searchParams.set("q", query);
          url.searchParams.set("format", "json");
          return { url, init: { headers: { accept: "application/json" } } };
        },
        results: (body) =>
          parse(label, ZSearxngResponse, body).results.map((r) => ({
            title: r.title,
            url: r.url,
            snippet: r.content,
            published: r.publishedDate,
          })),
      };
    case "brave":
      return {
        request(query, count) {
          const url = new URL(config.url);
          url.searchParams.set("q", query);
          url.searchParams.set("count", String(Math.min(count, 20)));
          return {
            url,
            init: {
              headers: { accept: "application/json", "x-subscription-token": config.apiKey },
            },
          };
        },
        results: (body) =>
          (parse(label, ZBraveResponse, body).web?.results ?? []).map((r) => ({
            title: r.title,
            url: r.url,
            // Brave marks the query's words in <strong>, with HTML entities.
            snippet: plainText(r.description),
            published: r.page_age ?? r.age,
          })),
      };
    case "tavily":
      return {
        request(query, count) {
          const init: RequestInit = {
            method: "POST",
            headers: {
              accept: "application/json",
              "content-type": "application/json",
              authorization: `Bearer ${config.apiKey}`,
            },
            body: JSON.stringify({
              query,
              max_results: Math.min(count, 20),
              search_depth: "basic",
              include_answer: false,
              include_raw_content: false,
              include_images: false,
            }),
          };
          return { url: new URL(config.url), init };
        },
        results: (body) =>
          parse(label, ZTavilyResponse, body).results.map((r) => ({
            title: r.title,
            url: r.url,
            snippet: r.content,
            published: r.published_date,
          })),
      };
  }
}

// --- Wire shapes (only the fields used; anything else is ignored) --------------------------

const text = z.string().catch("");
const optionalText = z.string().nullish().catch(null);

/** A result as SearXNG and Tavily both send it; they name its date differently. */
const ZContentResult = z.object({
  url: text,
  title: text,
  content: text.optional().default(""),
});
const date = optionalText.transform((v) => v ?? null);

const ZSearxngResponse = z.object({
  results: z.array(ZContentResult.extend({ publishedDate: date })).catch([]),
});

const ZBraveResponse = z.object({
  web: z
    .object({
      results: z
        .array(
          z.object({
            url: text,
            title: text,
            description: text.optional().default(""),
            age: date,
            page_age: date,
          }),
        )
        .catch([]),
    })
    .nullish(),
});

const ZTavilyResponse = z.object({
  results: z.array(ZContentResult.extend({ published_date: date })).catch([]),
});

// --- The call -------------------------------------------------------------------------------

async function call(
  label: string,
  url: URL,
  init: RequestInit,
  signal: AbortSignal,
): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal, redirect: "error" });
  } catch {
    throw failure(label, signal);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new SearchFailedError("status", statusMessage(label, response.status));
  }
  let raw: string;
  try {
    raw = await readText(response, MAX_RESPONSE_BYTES);
  } catch (error) {
    if (error instanceof SearchFailedError) throw error;
    throw failure(label, signal);
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new SearchFailedError("response", `${label} answered something other than JSON.`);
  }
}

function failure(label: string, signal: AbortSignal): Error {
  if (signal.aborted) {
    // The tool's own deadline reads as a time-out; a stopped run passes its reason on.
    const reason: unknown = signal.reason;
    if (reason instanceof DOMException && reason.name === "TimeoutError") {
      return new SearchFailedError("timeout", `${label} did not answer in time.`);
    }
    return reason instanceof Error ? reason : new Error("aborted");
  }
  return new SearchFailedError("network", `${label} could not be reached.`);
}

function statusMessage(label: string, status: number): string {
  if (status === 401 || status === 403) {
    return `${label} refused the request (${status}): check the operator's key or, for SearXNG, that the JSON format is enabled (search.formats in settings.yml).`;
  }
  if (status === 429) return `${label} is rate-limiting searches (429); try again later.`;
  return `${label} answered ${status}.`;
}

async function readText(response: Response, maxBytes: number): Promise<string> {
  const { body, truncated } = await readCappedBody(response, maxBytes);
  if (truncated) throw new SearchFailedError("response", "The search answer was too large.");
  return new TextDecoder().decode(body);
}

function parse<T>(label: string, schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new SearchFailedError("response", `${label} answered in an unexpected shape.`);
  }
  return parsed.data;
}

// --- Cleaning -------------------------------------------------------------------------------

function cap(value: string, max: number): string {
  const flat = withoutNul(value).replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Text of an HTML fragment (tags dropped, entities decoded). */
function plainText(fragment: string): string {
  if (!/[<&]/.test(fragment)) return fragment;
  const holder = parseDocument("<!doctype html><html><body><p></p></body></html>").querySelector(
    "p",
  );
  if (!holder) return fragment;
  holder.innerHTML = fragment;
  return holder.textContent ?? "";
}

/** Only http(s) links, each once, at most `count`, every field capped. */
function clean(results: SearchResult[], count: number): SearchResult[] {
  const seen = new Set<string>();
  const kept: SearchResult[] = [];
  for (const result of results) {
    let url: URL;
    try {
      url = new URL(result.url);
    } catch {
      continue;
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.href.length > MAX_URL) {
      continue;
    }
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    kept.push({
      title: cap(result.title, MAX_TITLE) || url.hostname,
      url: url.href,
      snippet: cap(result.snippet, MAX_SNIPPET),
      published: result.published ? cap(result.published, 64) : null,
    });
    if (kept.length >= count) break;
  }
  return kept;
}
