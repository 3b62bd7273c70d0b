import type { TMcpServer, TMcpServerState } from "@cohort/contracts";
import { type StoredTool, toolInfo } from "./stored-tools";

export interface McpServerRow {
  id: string;
  workspace_id: string;
  created_by: string | null;
  name: string;
  slug: string;
  url: string;
  transport: "streamable_http" | "sse";
  auth_kind: "none" | "bearer" | "oauth";
  oauth_scope: string | null;
  oauth_state: string | null;
  secret_ciphertext: string | null;
  secret_iv: string | null;
  secret_tag: string | null;
  secret_key_id: string | null;
  secret_last4: string | null;
  state: TMcpServerState;
  last_error: string | null;
  last_checked_at: Date | string | null;
  tools: StoredTool[] | string;
}

export const MCP_SERVER_COLUMNS = `id, workspace_id, created_by, name, slug, url, transport, auth_kind,
  oauth_scope, oauth_state, secret_ciphertext, secret_iv, secret_tag, secret_key_id, secret_last4,
  state, last_error, last_checked_at, tools`;

export function rowTools(row: Pick<McpServerRow, "tools">): StoredTool[] {
  return typeof row.tools === "string" ? (JSON.parse(row.tools) as StoredTool[]) : row.tools;
}

function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}

/** The wire form; `manageable` is the caller's right to change it, decided by the caller. */
export function toMcpServer(row: McpServerRow, userId: string, manageable: boolean): TMcpServer {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    url: row.url,
    transport: row.transport,
    owner: row.workspace_id === userId ? "user" : "workspace",
    workspace_id: row.workspace_id === userId ? null : row.workspace_id,
    auth: { kind: row.auth_kind, last4: row.auth_kind === "bearer" ? row.secret_last4 : null },
    state: row.state,
    last_error: row.last_error,
    last_checked_at: iso(row.last_checked_at),
    tools: rowTools(row).map(toolInfo),
    manageable,
  };
}
