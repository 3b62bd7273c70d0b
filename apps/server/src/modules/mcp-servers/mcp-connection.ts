import { MCP_ANSWER_MAX_BYTES } from "@cohort/contracts";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { raceAbort } from "../../platform/race-abort";
import { loadMcpClientSdk, type McpClientSdk } from "./mcp-client-sdk";

/**
 * One short conversation with an MCP server (decision 060): connect, do one thing, close.
 * Runs call tools rarely and from any instance, so nothing is kept open between calls; every
 * byte the server sends is counted, and a connection that passes the cap is cut at once.
 */

export type McpTarget =
  | {
      transport: "streamable_http" | "sse";
      url: string;
      headers: Record<string, string>;
      /** The SSRF-guarded fetch for users' servers; the plain one for the operator's. */
      fetch: typeof fetch;
      authProvider?: OAuthClientProvider;
    }
  | {
      transport: "stdio";
      command: string;
      args: readonly string[];
      env: Record<string, string>;
      cwd?: string;
    };

export interface McpLimits {
  connectTimeoutMs: number;
  callTimeoutMs: number;
  maxAnswerBytes?: number;
}

/** Why a conversation failed, in words for the person and the model. */
export class McpConnectionError extends Error {
  constructor(
    readonly kind: "unreachable" | "timeout" | "too_large" | "unauthorized" | "protocol",
    message: string,
  ) {
    super(message);
    this.name = "McpConnectionError";
  }
}

const CLIENT_INFO = { name: "cohort", version: "1.0.0" };

/** A fetch that cuts the answer once more than `limit` bytes arrived on this connection. */
function countingFetch(base: typeof fetch, limit: number, overflow: AbortController): typeof fetch {
  let received = 0;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        received += chunk.byteLength;
        if (received > limit) {
          const error = new McpConnectionError("too_large", "answer too large");
          overflow.abort(error);
          controller.error(error);
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }) as typeof fetch;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const causeText = cause instanceof Error ? `: ${cause.message}` : "";
  return `${error.message}${causeText}`.slice(0, 300);
}

function classify(error: unknown, overflow: AbortSignal, timedOut: boolean): McpConnectionError {
  if (error instanceof McpConnectionError) return error;
  if (overflow.aborted && overflow.reason instanceof McpConnectionError) return overflow.reason;
  if (timedOut) return new McpConnectionError("timeout", "no answer in time");
  const name = error instanceof Error ? error.name : "";
  const text = describe(error);
  const code = (error as { code?: unknown }).code;
  if (name === "UnauthorizedError" || code === 401 || /\b401\b|unauthori[sz]ed/i.test(text)) {
    return new McpConnectionError("unauthorized", "the server refused the credentials (401)");
  }
  if (name === "UrlNotAllowedError") return new McpConnectionError("unreachable", text);
  if (/timed? ?out|-32001/i.test(text))
    return new McpConnectionError("timeout", "no answer in time");
  if (
    /fetch failed|ECONNREFUSED|ECONNRESET|socket|network|ENOTFOUND|EAI_AGAIN|SSE error/i.test(text)
  ) {
    return new McpConnectionError("unreachable", text);
  }
  return new McpConnectionError("protocol", text);
}

function buildTransport(
  sdk: McpClientSdk,
  target: McpTarget,
  overflow: AbortController,
  limit: number,
): Transport {
  const { SSEClientTransport, StdioClientTransport, StreamableHTTPClientTransport } = sdk;
  if (target.transport === "stdio") {
    // A fixed argv, no shell (decision 060); the server's stderr is not ours to print.
    return new StdioClientTransport({
      command: target.command,
      args: [...target.args],
      env: target.env,
      ...(target.cwd ? { cwd: target.cwd } : {}),
      stderr: "ignore",
    });
  }
  const options = {
    fetch: countingFetch(target.fetch, limit, overflow),
    requestInit: { headers: target.headers },
    ...(target.authProvider ? { authProvider: target.authProvider } : {}),
  };
  return target.transport === "sse"
    ? new SSEClientTransport(new URL(target.url), options)
    : new StreamableHTTPClientTransport(new URL(target.url), options);
}

/** Connects, runs `work` with the client, closes; every failure an McpConnectionError. */
export async function withMcpClient<T>(
  target: McpTarget,
  limits: McpLimits,
  work: (client: Client, signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  const sdk = await loadMcpClientSdk();
  const overflow = new AbortController();
  const limit = limits.maxAnswerBytes ?? MCP_ANSWER_MAX_BYTES;
  const transport = buildTransport(sdk, target, overflow, limit);
  const client = new sdk.Client(CLIENT_INFO);
  // Transport errors after the request settled (a stream cut on close) are expected noise.
  client.onerror = () => {};
  let timedOut = false;
  const signals = [overflow.signal, ...(outer ? [outer] : [])];
  const signal = AbortSignal.any(signals);
  try {
    const connectTimer = AbortSignal.timeout(limits.connectTimeoutMs);
    connectTimer.addEventListener("abort", () => {
      timedOut = true;
    });
    await raceAbort(
      client.connect(transport, { timeout: limits.connectTimeoutMs, signal }),
      AbortSignal.any([signal, connectTimer]),
    );
    timedOut = false;
    return await work(client, signal);
  } catch (error) {
    throw classify(error, overflow.signal, timedOut);
  } finally {
    await client.close().catch(() => {});
  }
}

/** The server's tools (all pages, up to `max`). */
export async function listMcpTools(
  target: McpTarget,
  limits: McpLimits,
  max: number,
): Promise<Tool[]> {
  return withMcpClient(target, limits, async (client, signal) => {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, {
        signal,
        timeout: limits.callTimeoutMs,
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && tools.length < max);
    return tools.slice(0, max);
  });
}

/** Calls one tool; a time-out, an oversized answer or a dead server is an McpConnectionError. */
export async function callMcpTool(
  target: McpTarget,
  limits: McpLimits,
  name: string,
  args: Record<string, unknown>,
  outer?: AbortSignal,
): Promise<CallToolResult> {
  return withMcpClient(
    target,
    limits,
    async (client, signal) => {
      let timedOut = false;
      const timer = AbortSignal.timeout(limits.callTimeoutMs);
      timer.addEventListener("abort", () => {
        timedOut = true;
      });
      try {
        const result = await raceAbort(
          client.callTool({ name, arguments: args }, undefined, {
            signal: AbortSignal.any([signal, timer]),
            timeout: limits.callTimeoutMs,
          }),
          AbortSignal.any([signal, timer]),
        );
        return result as CallToolResult;
      } catch (error) {
        if (timedOut) throw new McpConnectionError("timeout", "no answer in time");
        throw error;
      }
    },
    outer,
  );
}
