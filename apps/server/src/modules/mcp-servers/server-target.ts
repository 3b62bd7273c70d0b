import type { McpTarget } from "./mcp-connection";
import type { McpServersDeps } from "./mcp-servers-deps";
import { type StoredOAuthClient, storedOAuthClient } from "./oauth-client";
import type { OperatorMcpServer } from "./operator-servers";
import type { McpServerRow } from "./server-row";
import { readSecret } from "./server-secret";

/**
 * How to reach a user's or a workspace's server: always through the SSRF guard (every
 * request, every redirect), with its bearer token or OAuth client.
 */
export function rowTarget(
  deps: McpServersDeps,
  row: McpServerRow,
): { target: McpTarget; oauth?: StoredOAuthClient } {
  const headers: Record<string, string> = {};
  if (row.auth_kind === "bearer") {
    const token = readSecret(deps, row);
    if (token) headers.authorization = `Bearer ${token}`;
  }
  const oauth = row.auth_kind === "oauth" ? storedOAuthClient(deps, row) : undefined;
  const target: McpTarget = {
    transport: row.transport,
    url: row.url,
    headers,
    fetch: deps.ssrf.fetch,
    ...(oauth ? { authProvider: oauth } : {}),
  };
  return oauth ? { target, oauth } : { target };
}

/** The operator's own servers: trusted configuration, so private addresses when it says so. */
export function operatorTarget(deps: McpServersDeps, server: OperatorMcpServer): McpTarget {
  if (server.transport === "stdio") {
    return {
      transport: "stdio",
      command: server.command,
      args: server.args,
      env: server.env,
      ...(server.cwd ? { cwd: server.cwd } : {}),
    };
  }
  return {
    transport: server.transport,
    url: server.url,
    headers: server.headers,
    fetch: server.allow_private_network ? fetch : deps.ssrf.fetch,
  };
}
