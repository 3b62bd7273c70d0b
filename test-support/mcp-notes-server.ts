import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/**
 * A real MCP server (built with the SDK) for tests: a small notes server with a read tool
 * (`list_notes`, readOnlyHint) and a write tool (`create_note`), over Streamable HTTP
 * (`url`, stateless, like Cohort's own server) and the older HTTP+SSE transport (`sseUrl`),
 * on a random loopback port. Switches make it slow, answer 5 MB, or go down.
 */

export interface Note {
  id: string;
  title: string;
  body: string;
}

/** ok: answers normally; slow: every tool call waits `slowMs` first; huge: every tool call
 * answers `HUGE_ANSWER_BYTES` of text; down: every connection is reset at once. */
export type NotesServerMode = "ok" | "slow" | "huge" | "down";

export const HUGE_ANSWER_BYTES = 5 * 1024 * 1024;

export interface NotesServerOptions {
  /** Notes present at start (default: two notes, "Welcome" and "Groceries"). */
  notes?: Note[];
  /** Require `Authorization: Bearer <token>` accepted by this check (static token or OAuth). */
  acceptToken?: (token: string) => boolean;
  /** Announce an OAuth authorization server (RFC 9728 protected resource metadata at
   * /.well-known/oauth-protected-resource, and `resource_metadata` in the 401 challenge). */
  authorizationServer?: string;
  /** Replace the tools' descriptions (to plant untrusted text in tests). */
  descriptions?: { list_notes?: string; create_note?: string };
  /** How long a tool call waits in "slow" mode (default 60 s). */
  slowMs?: number;
  /** The server's name in its initialize answer (default "notes"). */
  name?: string;
}

export interface NotesServer {
  /** Streamable HTTP endpoint, e.g. http://127.0.0.1:41234/mcp */
  url: string;
  /** Legacy HTTP+SSE endpoint (GET opens the stream), e.g. http://127.0.0.1:41234/sse */
  sseUrl: string;
  /** The server's origin, http://127.0.0.1:PORT */
  origin: string;
  /** The notes as they are now (create_note appends). */
  notes: Note[];
  /** Every tool call received, in order. */
  calls: { tool: string; args: Record<string, unknown> }[];
  /** Every Authorization header received on MCP requests (undefined when absent). */
  authorizations: (string | undefined)[];
  mode: NotesServerMode;
  setMode(mode: NotesServerMode): void;
  /** A new SDK server over these notes, for another transport (the stdio mode below). */
  newMcpServer(): McpServer;
  close(): Promise<void>;
}

const DEFAULT_NOTES: Note[] = [
  { id: "n1", title: "Welcome", body: "This is the notes server used by Cohort's tests." },
  { id: "n2", title: "Groceries", body: "Milk, eggs, bread." },
];

function text(value: string): CallToolResult {
  return { content: [{ type: "text", text: value }] };
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  return raw ? JSON.parse(raw) : undefined;
}

export async function startNotesServer(options: NotesServerOptions = {}): Promise<NotesServer> {
  const sockets = new Set<Socket>();
  const sseTransports = new Map<string, SSEServerTransport>();
  const slowMs = options.slowMs ?? 60_000;

  const state: NotesServer = {
    url: "",
    sseUrl: "",
    origin: "",
    notes: (options.notes ?? DEFAULT_NOTES).map((note) => ({ ...note })),
    calls: [],
    authorizations: [],
    mode: "ok",
    newMcpServer: () => buildMcpServer(),
    setMode(mode) {
      state.mode = mode;
      if (mode === "down") for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const transport of sseTransports.values()) await transport.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  /** Waits or inflates per the mode; returns the answer to send instead, if any. */
  async function modeAnswer(signal: AbortSignal): Promise<CallToolResult | undefined> {
    if (state.mode === "slow") {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, slowMs);
        signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (state.mode === "huge") return text("x".repeat(HUGE_ANSWER_BYTES));
    return undefined;
  }

  function buildMcpServer(): McpServer {
    const mcp = new McpServer({ name: options.name ?? "notes", version: "1.0.0" });
    mcp.registerTool(
      "list_notes",
      {
        title: "List notes",
        description:
          options.descriptions?.list_notes ??
          "Lists the user's notes (id, title, body). Optionally filters by a word in the title.",
        inputSchema: { query: z.string().optional() },
        annotations: { readOnlyHint: true },
      },
      async ({ query }, extra) => {
        state.calls.push({ tool: "list_notes", args: query === undefined ? {} : { query } });
        const special = await modeAnswer(extra.signal);
        if (special) return special;
        // Any word of the query (3+ letters) found in a title picks that note: a model (or the
        // simulator) may pass the whole task as the query.
        const words = (query ?? "")
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter((w) => w.length >= 3);
        const notes =
          words.length > 0
            ? state.notes.filter((n) => words.some((w) => n.title.toLowerCase().includes(w)))
            : state.notes;
        if (notes.length === 0) return text("No notes.");
        return text(notes.map((n) => `- [${n.id}] ${n.title}: ${n.body}`).join("\n"));
      },
    );
    mcp.registerTool(
      "create_note",
      {
        title: "Create note",
        description:
          options.descriptions?.create_note ??
          "Creates a note with a title and a body; answers the new note's id.",
        inputSchema: { title: z.string().min(1), body: z.string() },
        annotations: { readOnlyHint: false, destructiveHint: false },
      },
      async ({ title, body }, extra) => {
        state.calls.push({ tool: "create_note", args: { title, body } });
        const special = await modeAnswer(extra.signal);
        if (special) return special;
        const note = { id: `n${state.notes.length + 1}`, title, body };
        state.notes.push(note);
        return text(`Created note ${note.id}: ${note.title}`);
      },
    );
    return mcp;
  }

  function refuseUnauthorized(request: IncomingMessage, response: ServerResponse): boolean {
    state.authorizations.push(request.headers.authorization);
    if (!options.acceptToken) return false;
    const header = request.headers.authorization ?? "";
    const token = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
    if (token && options.acceptToken(token)) return false;
    const challenge = options.authorizationServer
      ? `Bearer resource_metadata="${state.origin}/.well-known/oauth-protected-resource"`
      : 'Bearer realm="notes"';
    response.writeHead(401, { "content-type": "application/json", "www-authenticate": challenge });
    response.end(JSON.stringify({ error: "invalid_token" }));
    return true;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", state.origin);
    if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
      if (!options.authorizationServer) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          resource: state.url,
          authorization_servers: [options.authorizationServer],
          bearer_methods_supported: ["header"],
        }),
      );
      return;
    }
    if (url.pathname === "/mcp") {
      if (refuseUnauthorized(request, response)) return;
      if (request.method !== "POST") {
        response.writeHead(405, { allow: "POST" }).end();
        return;
      }
      const body = await readBody(request);
      const mcp = buildMcpServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on("close", () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(request, response, body);
      return;
    }
    if (url.pathname === "/sse" && request.method === "GET") {
      if (refuseUnauthorized(request, response)) return;
      const transport = new SSEServerTransport("/messages", response);
      sseTransports.set(transport.sessionId, transport);
      const mcp = buildMcpServer();
      response.on("close", () => {
        sseTransports.delete(transport.sessionId);
        void mcp.close();
      });
      await mcp.connect(transport);
      return;
    }
    if (url.pathname === "/messages" && request.method === "POST") {
      if (refuseUnauthorized(request, response)) return;
      const transport = sseTransports.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) {
        response.writeHead(404).end("unknown session");
        return;
      }
      await transport.handlePostMessage(request, response, await readBody(request));
      return;
    }
    response.writeHead(404).end();
  }

  const server = createServer((request, response) => {
    if (state.mode === "down") {
      request.socket.destroy();
      return;
    }
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.url = `${state.origin}/mcp`;
  state.sseUrl = `${state.origin}/sse`;
  return state;
}

/** A token for `acceptToken` tests: `acceptToken: (t) => t === token`. */
export function randomToken(): string {
  return randomUUID().replaceAll("-", "");
}

/**
 * Runs the server from the command line (for a browser test's global setup in another
 * process, or by hand): `npx tsx test-support/mcp-notes-server.ts` prints the Streamable
 * HTTP URL; with `--stdio` it speaks MCP on stdin/stdout instead (an operator's stdio server
 * in tests: `node --import tsx test-support/mcp-notes-server.ts --stdio`) and ends with stdin.
 */
if (process.argv[1]?.endsWith("mcp-notes-server.ts")) {
  const server = await startNotesServer();
  if (process.argv.includes("--stdio")) {
    const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
    await server.newMcpServer().connect(new StdioServerTransport());
    process.stdin.on("end", () => process.exit(0));
  } else {
    process.stdout.write(`${server.url}\n`);
  }
}
