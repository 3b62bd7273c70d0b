import {
  MCP_SERVER_MESSAGES,
  MCP_TOOLS_PER_SERVER_MAX,
  type TMcpServerState,
} from "@cohort/contracts";
import { loadMcpClientSdk } from "./mcp-client-sdk";
import { listMcpTools, McpConnectionError, type McpTarget } from "./mcp-connection";
import type { McpServersDeps } from "./mcp-servers-deps";
import { MCP_SERVER_COLUMNS, type McpServerRow, rowTools } from "./server-row";
import { rowTarget } from "./server-target";
import { type StoredTool, storedTools } from "./stored-tools";

export interface ServerStatus {
  state: TMcpServerState;
  lastError: string | null;
  tools: StoredTool[];
}

/** The words for a failed conversation, as Settings and the lane show them. */
export function failureText(
  name: string,
  error: unknown,
  limits: McpServersDeps["limits"],
): string {
  if (!(error instanceof McpConnectionError)) return MCP_SERVER_MESSAGES.down(name, String(error));
  switch (error.kind) {
    case "timeout":
      return MCP_SERVER_MESSAGES.timedOut(name, Math.round(limits.callTimeoutMs / 1000));
    case "too_large":
      return MCP_SERVER_MESSAGES.tooLarge(name, limits.maxAnswerBytes ?? 1024 * 1024);
    case "unauthorized":
      return `MCP server "${name}" refused Cohort's credentials (401). Check the token or sign in again.`;
    default:
      return MCP_SERVER_MESSAGES.down(name, error.message);
  }
}

/** Asks a server for its tools; never throws: a failure is a state with its words. */
export async function probeServer(
  deps: McpServersDeps,
  name: string,
  slug: string,
  target: McpTarget,
): Promise<ServerStatus> {
  try {
    const tools = await listMcpTools(target, deps.limits, MCP_TOOLS_PER_SERVER_MAX);
    return { state: "connected", lastError: null, tools: storedTools(slug, tools) };
  } catch (error) {
    return { state: "error", lastError: failureText(name, error, deps.limits), tools: [] };
  }
}

/**
 * Refreshes a stored server's state and tool list. An OAuth server without tokens is not
 * called: the SDK starts its sign-in instead, and the address to send the person to comes
 * back (`authorizationUrl`).
 */
export async function refreshServer(
  deps: McpServersDeps,
  row: McpServerRow,
): Promise<{ row: McpServerRow; authorizationUrl: string | null }> {
  const { target, oauth } = rowTarget(deps, row);
  let status: ServerStatus;
  let authorizationUrl: string | null = null;
  if (oauth && !(await oauth.tokens())) {
    const { auth } = await loadMcpClientSdk();
    try {
      const result = await auth(oauth, {
        serverUrl: row.url,
        fetchFn: deps.ssrf.fetch,
        ...(row.oauth_scope ? { scope: row.oauth_scope } : {}),
      });
      authorizationUrl =
        result === "REDIRECT" ? (oauth.authorizationUrl()?.toString() ?? null) : null;
      status = authorizationUrl
        ? { state: "needs_authorization", lastError: null, tools: [] }
        : await probeServer(deps, row.name, row.slug, target);
    } catch (error) {
      status = {
        state: "error",
        lastError: `Signing in to MCP server "${row.name}" failed: ${(error as Error).message.slice(0, 300)}`,
        tools: [],
      };
    }
  } else {
    status = await probeServer(deps, row.name, row.slug, target);
    if (oauth && status.state === "error" && !(await oauth.tokens())) {
      // The tokens were refused and dropped by the SDK: the person signs in again.
      status = { state: "needs_authorization", lastError: status.lastError, tools: [] };
    }
  }
  // A server that is down keeps its last tool list: a run still offers the tools, and a call
  // then reports the server unreachable in its lane.
  const tools = status.state === "error" ? rowTools(row) : status.tools;
  const { rows } = await deps.db.query<McpServerRow>(
    `UPDATE mcp_servers SET state = $2, last_error = $3, tools = $4::jsonb,
       last_checked_at = clock_timestamp(), updated_at = clock_timestamp()
     WHERE id = $1 RETURNING ${MCP_SERVER_COLUMNS}`,
    [row.id, status.state, status.lastError, JSON.stringify(tools)],
  );
  return { row: rows[0] ?? row, authorizationUrl };
}
