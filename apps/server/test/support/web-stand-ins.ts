import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * Local servers that speak what the web tools talk to: a web site (pages, redirects, slow
 * and endless answers) and the three search APIs' real protocols (SearXNG's JSON API, Brave
 * Search's web search, Tavily's search), each recording what it was asked.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

type Handler = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export class StandIn {
  readonly requests: RecordedRequest[] = [];
  private constructor(
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    readonly url: string,
    readonly port: number,
  ) {}

  static async start(handler: Handler, host = "127.0.0.1"): Promise<StandIn> {
    let standIn: StandIn | undefined;
    const sockets = new Set<Socket>();
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://stand-in");
        const recorded: RecordedRequest = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        standIn?.requests.push(recorded);
        Promise.resolve(handler(recorded, res)).catch(() => res.destroy());
      });
    });
    server.on("connection", (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    standIn = new StandIn(server, sockets, `http://${host}:${port}`, port);
    return standIn;
  }

  reset(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// --- A web site ---------------------------------------------------------------------------

export interface PageAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sends the headers, then this many bytes of `x` in 64 KB pieces (a page that never ends). */
  endlessBytes?: number;
  /** Sends the headers, then waits this long before the body. */
  delayMs?: number;
}

/** A site whose pages the test sets per path; an unknown path is a 404. */
export async function startSite(
  pages: Record<string, PageAnswer>,
  host = "127.0.0.1",
): Promise<StandIn> {
  return StandIn.start(async (request, res) => {
    const page = pages[request.path];
    if (!page) {
      res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
      return;
    }
    res.writeHead(page.status ?? 200, {
      "content-type": "text/html; charset=utf-8",
      ...page.headers,
    });
    if (page.delayMs) {
      res.flushHeaders();
      await new Promise((resolve) => setTimeout(resolve, page.delayMs));
    }
    if (page.endlessBytes) {
      const piece = Buffer.alloc(65_536, "x");
      let sent = 0;
      const pump = () => {
        while (sent < (page.endlessBytes ?? 0)) {
          sent += piece.length;
          if (!res.write(piece)) {
            res.once("drain", pump);
            return;
          }
        }
        res.end();
      };
      res.on("close", () => {
        sent = Number.POSITIVE_INFINITY;
      });
      pump();
      return;
    }
    res.end(page.body ?? "");
  }, host);
}

// --- Search APIs ----------------------------------------------------------------------------

export interface StandInResult {
  title: string;
  url: string;
  snippet: string;
}

/** What each stand-in answers for a query: set per test, the query echoed in the first title. */
export function resultsFor(query: string): StandInResult[] {
  return [
    {
      title: `About ${query}`,
      url: "https://en.example.org/wiki/Owls",
      snippet: "Owls are birds of prey.",
    },
    {
      title: "Owl habits",
      url: "https://birds.example.net/owls?page=2",
      snippet: "Most owls hunt at night.",
    },
    { title: "Scripted", url: "javascript:alert(1)", snippet: "never a link" },
    {
      title: "Owl habits (again)",
      url: "https://birds.example.net/owls?page=2",
      snippet: "A duplicate of the second.",
    },
    { title: "Owl calls", url: "http://sounds.example.com/owl", snippet: "Hoots, shrieks." },
  ];
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * SearXNG: `GET /search?q=…&format=json`; without `format=json` enabled (or asked) a real
 * instance answers 403.
 */
export function startSearxng(options: { delayMs?: number } = {}): Promise<StandIn> {
  return StandIn.start(async (request, res) => {
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (request.method !== "GET" || request.path !== "/search") return json(res, 404, {});
    if (request.query.get("format") !== "json") {
      res.writeHead(403, { "content-type": "text/html" }).end("<h1>403 Forbidden</h1>");
      return;
    }
    const q = request.query.get("q") ?? "";
    json(res, 200, {
      query: q,
      number_of_results: 0,
      results: resultsFor(q).map((r, i) => ({
        url: r.url,
        title: r.title,
        content: r.snippet,
        engine: "duckduckgo",
        engines: ["duckduckgo"],
        score: 5 - i,
        category: "general",
        ...(i === 0 ? { publishedDate: "2026-11-02T00:00:00" } : {}),
      })),
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: [],
    });
  });
}

/** Brave Search: `GET /res/v1/web/search?q=…&count=N` with `X-Subscription-Token`. */
export function startBrave(apiKey: string): Promise<StandIn> {
  return StandIn.start((request, res) => {
    if (request.method !== "GET" || request.path !== "/res/v1/web/search") {
      return json(res, 404, {});
    }
    if (request.headers["x-subscription-token"] !== apiKey) {
      return json(res, 401, {
        type: "ErrorResponse",
        error: { code: "SUBSCRIPTION_TOKEN_INVALID", status: 401, detail: "invalid token" },
      });
    }
    const q = request.query.get("q") ?? "";
    const count = Number(request.query.get("count") ?? 20);
    json(res, 200, {
      type: "search",
      query: { original: q, more_results_available: true },
      mixed: { type: "mixed", main: [] },
      web: {
        type: "search",
        results: resultsFor(q)
          .slice(0, count)
          .map((r, i) => ({
            type: "search_result",
            title: r.title,
            url: r.url,
            // Brave's snippets mark the query's words and escape entities.
            description: `<strong>${r.snippet.split(" ")[0]}</strong> ${r.snippet.split(" ").slice(1).join(" ")} It&#x27;s &amp; more.`,
            language: "en",
            ...(i === 0 ? { page_age: "2026-10-30T08:00:00", age: "October 30, 2026" } : {}),
          })),
      },
    });
  });
}

/** Tavily: `POST /search` with `Authorization: Bearer <key>` and a JSON body. */
export function startTavily(apiKey: string): Promise<StandIn> {
  return StandIn.start((request, res) => {
    if (request.method !== "POST" || request.path !== "/search") return json(res, 404, {});
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return json(res, 401, { detail: { error: "Unauthorized: missing or invalid API key." } });
    }
    let body: { query?: unknown; max_results?: unknown };
    try {
      body = JSON.parse(request.body) as typeof body;
    } catch {
      return json(res, 400, { detail: { error: "Invalid JSON" } });
    }
    if (typeof body.query !== "string" || body.query.length === 0) {
      return json(res, 400, { detail: { error: "query is required" } });
    }
    const max = typeof body.max_results === "number" ? body.max_results : 5;
    json(res, 200, {
      query: body.query,
      follow_up_questions: null,
      answer: null,
      images: [],
      results: resultsFor(body.query)
        .slice(0, max)
        .map((r, i) => ({
          title: r.title,
          url: r.url,
          content: r.snippet,
          score: 0.9 - i / 10,
          raw_content: null,
        })),
      response_time: 0.42,
    });
  });
}
