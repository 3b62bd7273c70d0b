import { randomUUID } from "node:crypto";
import {
  ERROR_CODES,
  MCP_SERVER_ERROR_CODES,
  MCP_SERVER_MESSAGES,
  mcpSlug,
  type TCreateMcpServer,
  ZCreateMcpServer,
} from "@cohort/contracts";
import { isUniqueViolation } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { UrlNotAllowedError } from "../../platform/ssrf";
import type { McpServersDeps } from "./mcp-servers-deps";
import { MCP_SERVER_COLUMNS, type McpServerRow } from "./server-row";
import { sealedColumns } from "./server-secret";

export function serverNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "There is no such MCP server.");
}

/** Refuses anything but an http(s) URL that reaches only allowed addresses (the SSRF guard). */
export async function checkServerUrl(deps: McpServersDeps, raw: string): Promise<string> {
  try {
    const { url } = await deps.ssrf.checkUrl(raw);
    if (url.username || url.password) {
      throw new UrlNotAllowedError(
        "credentials",
        "Leave user names and passwords out of the address; use the token field.",
      );
    }
    url.hash = "";
    return url.toString();
  } catch (error) {
    if (!(error instanceof UrlNotAllowedError)) throw error;
    throw new AppError(MCP_SERVER_ERROR_CODES.urlNotAllowed, 400, error.message, {
      reason: error.reason,
    });
  }
}

/** Stores a new server in a workspace (the caller's right to is checked by the route). */
export async function createServer(
  deps: McpServersDeps,
  workspaceId: string,
  userId: string,
  raw: TCreateMcpServer,
): Promise<McpServerRow> {
  const input = ZCreateMcpServer.parse(raw);
  if (input.transport === "stdio" || input.command !== undefined) {
    throw new AppError(MCP_SERVER_ERROR_CODES.stdioRefused, 400, MCP_SERVER_MESSAGES.stdioRefused);
  }
  const url = await checkServerUrl(deps, input.url);
  const id = randomUUID();
  const slug = mcpSlug(input.name);
  const secret =
    input.auth.kind === "bearer"
      ? [...sealedColumns(deps, id, input.auth.token), input.auth.token.slice(-4)]
      : [null, null, null, null, null];
  try {
    const { rows } = await deps.db.query<McpServerRow>(
      `INSERT INTO mcp_servers (id, workspace_id, created_by, name, slug, url, transport, auth_kind,
         oauth_scope, secret_ciphertext, secret_iv, secret_tag, secret_key_id, secret_last4)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING ${MCP_SERVER_COLUMNS}`,
      [
        id,
        workspaceId,
        userId,
        input.name,
        slug,
        url,
        input.transport,
        input.auth.kind,
        input.auth.kind === "oauth" ? (input.auth.scope ?? null) : null,
        ...secret,
      ],
    );
    return rows[0] as McpServerRow;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError(
        MCP_SERVER_ERROR_CODES.nameTaken,
        409,
        MCP_SERVER_MESSAGES.nameTaken(slug),
      );
    }
    throw error;
  }
}

export async function listServerRows(
  deps: Pick<McpServersDeps, "db">,
  workspaceIds: readonly string[],
): Promise<McpServerRow[]> {
  if (workspaceIds.length === 0) return [];
  const { rows } = await deps.db.query<McpServerRow>(
    `SELECT ${MCP_SERVER_COLUMNS} FROM mcp_servers WHERE workspace_id = ANY($1::uuid[])
     ORDER BY created_at, id`,
    [workspaceIds],
  );
  return rows;
}

export async function findServerRow(
  deps: Pick<McpServersDeps, "db">,
  id: string,
): Promise<McpServerRow | null> {
  if (!isUuid(id)) return null;
  const { rows } = await deps.db.query<McpServerRow>(
    `SELECT ${MCP_SERVER_COLUMNS} FROM mcp_servers WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findServerByOAuthState(
  deps: Pick<McpServersDeps, "db">,
  state: string,
): Promise<McpServerRow | null> {
  const { rows } = await deps.db.query<McpServerRow>(
    `SELECT ${MCP_SERVER_COLUMNS} FROM mcp_servers WHERE oauth_state = $1`,
    [state],
  );
  return rows[0] ?? null;
}

export async function clearOAuthState(deps: Pick<McpServersDeps, "db">, id: string): Promise<void> {
  await deps.db.query("UPDATE mcp_servers SET oauth_state = NULL WHERE id = $1", [id]);
}

export async function deleteServer(deps: Pick<McpServersDeps, "db">, id: string): Promise<void> {
  await deps.db.query("DELETE FROM mcp_servers WHERE id = $1", [id]);
}
