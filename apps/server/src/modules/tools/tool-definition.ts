import type { JSONSchema7 } from "@ai-sdk/provider";
import type { TToolRisk } from "@cohort/contracts";
import type { z } from "zod";

// The tool layer's shared interface (decision 058):
// every tool — built-in, MCP, run_code, images — is one ToolDefinition, offered by a
// ToolProvider that its module registers with `app.tools.addProvider(provider)`.

/**
 * read: looks something up; write: changes something of the user's; external: talks to a
 * system outside Cohort (web, a third-party API); costly: spends money or compute.
 */
export type ToolRisk = TToolRisk;

export type ToolSource =
  | { kind: "builtin" }
  | { kind: "mcp"; serverId: string; serverName: string };

/** A citable source. */
export interface ToolSourceRef {
  n: number;
  title: string;
  url: string | null;
}

export interface ToolContext {
  runId: string;
  sessionId: string;
  workspaceId: string | null;
  userId: string;
  /** The plan step of the lane that calls it (null outside a plan step). */
  stepId: string | null;
  /** The role of the lane that calls it. */
  role: string | null;
  /** This tool call's id (also the events' tool_call_id). */
  callId: string;
  /** Aborted on run stop / tool timeout. */
  signal: AbortSignal;
  log: { warn(o: object, m: string): void; error(o: object, m: string): void };
  /** Run-scoped scratch space other tools (run_code) may share; created lazily. */
  scratchDir(): Promise<string>;
}

export interface ToolOutput {
  /**
   * What the model sees (capped by the registry at TOOL_OUTPUT_MAX_CHARS before it does;
   * marked as untrusted data when the tool's `untrustedOutput` is set).
   */
  text: string;
  /**
   * Citable sources (web pages, search results), numbered by the run with its documents'
   * passages (decision 067); `snippet` is what the synthesis is shown of each.
   */
  sources?: (Omit<ToolSourceRef, "n"> & { snippet?: string })[];
  /** Structured result for the UI/exports (JSON-serialisable, capped). */
  data?: unknown;
  /** Files produced (images, run_code outputs): stored by the caller's module, listed here. */
  files?: { name: string; mediaType: string; bytes: number; url: string }[];
  /** Actual price in hundredths of a credit when it differs from `price` (e.g. per second). */
  creditsUsed?: number;
  /** The call failed in a way the model should hear (not a crash): shown as an error row. */
  isError?: boolean;
}

export interface ToolDefinition<I = unknown> {
  /**
   * Unique in a run: built-ins `search_documents`, `read_url`, `web_search`, `run_code`,
   * `generate_image`; MCP tools `mcp__<serverslug>__<toolname>` (≤ 64 chars, [a-zA-Z0-9_-]).
   */
  name: string;
  title: string;
  /**
   * For MCP tools this is the server's own text: untrusted, shown to the person who connects
   * the server, passed to the model only as a description.
   */
  description: string;
  input: { kind: "zod"; schema: z.ZodType<I> } | { kind: "json"; schema: JSONSchema7 };
  risk: ToolRisk;
  source: ToolSource;
  /** Held before the call like a model call's hold, hundredths of a credit; 0 = free. */
  price: number;
  /**
   * Output comes from outside the user's prompt (web, MCP, documents): after a lane reads it,
   * that lane's write/external calls always need approval (decision 058).
   */
  untrustedOutput: boolean;
  timeoutMs: number;
  execute(input: I, ctx: ToolContext): Promise<ToolOutput>;
}

/** Who a provider is asked for: the run's user, workspace and session. */
export interface ToolScope {
  userId: string;
  workspaceId: string | null;
  sessionId: string;
}

/** Where tools come from; the registry asks every provider at run start. */
export interface ToolProvider {
  /** "builtin", "mcp", "code", "images", "web" … unique per registry. */
  id: string;
  tools(scope: ToolScope): Promise<ToolDefinition[]>;
  /**
   * Why a tool this provider could offer is absent (e.g. "web_search: no search provider
   * configured — set SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY"). Shown in the UI.
   */
  unavailable?(): { name: string; reason: string }[];
}
