import {
  MCP_SERVER_ERROR_CODES,
  MCP_SERVER_MESSAGES,
  mcpSlug,
  type TMcpServer,
  ZCreateMcpServer,
  ZMcpOAuthCallbackQuery,
  ZMcpServerResponse,
  ZMcpServersResponse,
  ZMcpServerTestResponse,
  ZSuccessResponse,
  ZWorkspaceScope,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import type { ToolProvider } from "../tools/tool-definition";
import { recordWorkspaceAudit } from "../workspaces/record-workspace-audit";
import { findWorkspaceAccess, requireWorkspaceAccess } from "../workspaces/workspace-access";
import {
  checkServerUrl,
  clearOAuthState,
  createServer,
  deleteServer,
  findServerByOAuthState,
  findServerRow,
  listServerRows,
  serverNotFound,
} from "./manage-servers";
import { loadMcpClientSdk } from "./mcp-client-sdk";
import { type McpServersDeps, mcpServersDeps } from "./mcp-servers-deps";
import { mcpToolProvider } from "./mcp-tool-provider";
import { isOperatorServerId } from "./operator-servers";
import {
  createOperatorServers,
  type OperatorServerStatus,
  type OperatorServers,
} from "./operator-status";
import { probeServer, refreshServer } from "./refresh-server";
import { type McpServerRow, toMcpServer } from "./server-row";
import { rowTarget } from "./server-target";
import { toolInfo } from "./stored-tools";

const tags = ["mcp-servers"];
/** Each refresh or test is a real call to someone's server: a few a minute are plenty. */
const CALLS_PER_MINUTE = 30;
const ZServerId = z.object({ id: z.string().min(1).max(100) });

function operatorServer(entry: OperatorServerStatus): TMcpServer {
  const { config, status } = entry;
  return {
    id: config.id,
    name: config.name,
    slug: config.slug,
    url: config.transport === "stdio" ? "stdio (started by the operator)" : config.url,
    transport: config.transport,
    owner: "operator",
    workspace_id: null,
    auth: { kind: "none", last4: null },
    state: status.state,
    last_error: status.lastError,
    last_checked_at: entry.checkedAt?.toISOString() ?? null,
    tools: status.tools.map(toolInfo),
    manageable: false,
  };
}

declare module "fastify" {
  interface FastifyInstance {
    /** The "mcp" tool provider (modules/mcp-servers), for the tool registry. */
    mcpTools: ToolProvider;
  }
}

/**
 * The user's and workspaces' MCP servers (decision 060): list, add, test, refresh, remove,
 * and the OAuth callback. Operator servers are listed, never changed.
 */
export async function registerMcpServers(app: FastifyInstance): Promise<void> {
  const deps: McpServersDeps = mcpServersDeps(app);
  const operator = createOperatorServers(deps);
  // On the root instance (not inside the routes' plugin), so the tool registry sees it.
  const provider = mcpToolProvider(deps, operator);
  app.decorate("mcpTools", provider);
  app.tools.addProvider(provider);
  await app.register(mcpServerRoutes, { deps, operator });
}

async function mcpServerRoutes(
  app: FastifyInstance,
  { deps, operator }: { deps: McpServersDeps; operator: OperatorServers },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const callLimit = { rateLimit: { max: CALLS_PER_MINUTE, timeWindow: 60_000 } };

  /** The row, if the caller may manage it (admin of its workspace; 404 otherwise). */
  async function manageable(userId: string, id: string): Promise<McpServerRow> {
    const row = await findServerRow(deps, id);
    if (!row) throw serverNotFound();
    const access = await findWorkspaceAccess(app.db, userId, row.workspace_id);
    if (row.workspace_id !== userId && !access) throw serverNotFound();
    await requireWorkspaceAccess(app.db, userId, row.workspace_id, "admin");
    return row;
  }

  r.get(
    "/api/mcp-servers",
    {
      schema: {
        tags,
        summary:
          "MCP servers of the caller (or of a workspace, `workspace_id`) and the operator's, with connection state, last error and tools",
        querystring: ZWorkspaceScope,
        response: { 200: ZMcpServersResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.query.workspace_id);
      const admin = access.role === "owner" || access.role === "admin";
      const rows = await listServerRows(deps, [access.workspaceId]);
      reply.header("cache-control", "no-store");
      return {
        servers: [
          ...(await operator.all()).map(operatorServer),
          ...rows.map((row) => toMcpServer(row, user.id, admin)),
        ],
      };
    },
  );

  r.post(
    "/api/mcp-servers",
    {
      config: callLimit,
      schema: {
        tags,
        summary:
          "Connect an MCP server (Streamable HTTP or SSE; no auth, a bearer token or OAuth 2.1). stdio is refused (400 mcp_stdio_refused). With OAuth the answer has the address to sign in at",
        body: ZCreateMcpServer,
        response: { 201: ZMcpServerResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      if (request.body.transport === "stdio" || request.body.command !== undefined) {
        throw new AppError(
          MCP_SERVER_ERROR_CODES.stdioRefused,
          400,
          MCP_SERVER_MESSAGES.stdioRefused,
        );
      }
      const access = await requireWorkspaceAccess(
        app.db,
        user.id,
        request.body.workspace_id,
        "admin",
      );
      const created = await createServer(deps, access.workspaceId, user.id, request.body);
      if (created.workspace_id !== user.id) {
        await recordWorkspaceAudit(app.db, {
          workspaceId: created.workspace_id,
          actorId: user.id,
          action: "mcp_server.added",
          target: created.id,
          details: { name: created.name, url: created.url, auth: created.auth_kind },
        });
      }
      const { row, authorizationUrl } = await refreshServer(deps, created);
      request.log.info({ serverId: row.id, workspaceId: row.workspace_id }, "mcp server added");
      reply.code(201);
      return { server: toMcpServer(row, user.id, true), authorization_url: authorizationUrl };
    },
  );

  r.post(
    "/api/mcp-servers/test",
    {
      config: callLimit,
      schema: {
        tags,
        summary:
          "Try a server before adding it: connect, list its tools, store nothing (OAuth servers are tested by adding them)",
        body: ZCreateMcpServer,
        response: { 200: ZMcpServerTestResponse },
      },
    },
    async (request) => {
      await requireUser(request);
      const body = request.body;
      if (body.transport === "stdio" || body.command !== undefined) {
        throw new AppError(
          MCP_SERVER_ERROR_CODES.stdioRefused,
          400,
          MCP_SERVER_MESSAGES.stdioRefused,
        );
      }
      const url = await checkServerUrl(deps, body.url);
      const headers: Record<string, string> =
        body.auth.kind === "bearer" ? { authorization: `Bearer ${body.auth.token}` } : {};
      const status = await probeServer(deps, body.name, mcpSlug(body.name), {
        transport: body.transport,
        url,
        headers,
        fetch: deps.ssrf.fetch,
      });
      return {
        state: status.state === "connected" ? ("connected" as const) : ("error" as const),
        last_error: status.lastError,
        tools: status.tools.map(toolInfo),
      };
    },
  );

  r.post(
    "/api/mcp-servers/:id/refresh",
    {
      config: callLimit,
      schema: {
        tags,
        summary: "Ask the server again for its tools; the state and last error are updated",
        params: ZServerId,
        response: { 200: ZMcpServerResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      if (isOperatorServerId(request.params.id)) {
        const entry = await operator.refresh(request.params.id);
        if (!entry) throw serverNotFound();
        return { server: operatorServer(entry), authorization_url: null };
      }
      const row = await manageable(user.id, request.params.id);
      const refreshed = await refreshServer(deps, row);
      return {
        server: toMcpServer(refreshed.row, user.id, true),
        authorization_url: refreshed.authorizationUrl,
      };
    },
  );

  r.delete(
    "/api/mcp-servers/:id",
    {
      schema: {
        tags,
        summary: "Remove an MCP server (its stored token goes with it)",
        params: ZServerId,
        response: { 200: ZSuccessResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      if (isOperatorServerId(request.params.id)) {
        throw new AppError(
          MCP_SERVER_ERROR_CODES.operatorServer,
          403,
          MCP_SERVER_MESSAGES.operatorServer,
        );
      }
      const row = await manageable(user.id, request.params.id);
      await deleteServer(deps, row.id);
      if (row.workspace_id !== user.id) {
        await recordWorkspaceAudit(app.db, {
          workspaceId: row.workspace_id,
          actorId: user.id,
          action: "mcp_server.removed",
          target: row.id,
          details: { name: row.name, url: row.url },
        });
      }
      request.log.info({ serverId: row.id }, "mcp server removed");
      return { success: true as const, message: `MCP server "${row.name}" was removed.` };
    },
  );

  r.get(
    "/api/mcp-servers/oauth/callback",
    {
      schema: {
        tags,
        summary:
          "Where an MCP server's authorization server sends the person back: the code is exchanged for tokens (PKCE), then to Settings",
        querystring: ZMcpOAuthCallbackQuery,
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const row = await findServerByOAuthState(deps, request.query.state);
      if (!row) {
        throw new AppError(
          MCP_SERVER_ERROR_CODES.oauthStateInvalid,
          400,
          MCP_SERVER_MESSAGES.oauthStateInvalid,
        );
      }
      await manageable(user.id, row.id);
      await clearOAuthState(deps, row.id);
      const back = row.workspace_id === user.id ? "/settings" : "/team/settings";
      if (!request.query.code) {
        await app.db.query(
          "UPDATE mcp_servers SET state = 'needs_authorization', last_error = $2 WHERE id = $1",
          [row.id, `Signing in was not completed (${request.query.error ?? "no code"}).`],
        );
        return reply.redirect(`${back}?mcp_server=${row.id}`, 302);
      }
      const { oauth } = rowTarget(deps, row);
      if (!oauth) throw serverNotFound();
      const { auth } = await loadMcpClientSdk();
      try {
        await auth(oauth, {
          serverUrl: row.url,
          authorizationCode: request.query.code,
          fetchFn: deps.ssrf.fetch,
          ...(row.oauth_scope ? { scope: row.oauth_scope } : {}),
        });
      } catch (error) {
        await app.db.query(
          "UPDATE mcp_servers SET state = 'error', last_error = $2 WHERE id = $1",
          [
            row.id,
            `Signing in to MCP server "${row.name}" failed: ${(error as Error).message.slice(0, 300)}`,
          ],
        );
        return reply.redirect(`${back}?mcp_server=${row.id}`, 302);
      }
      const fresh = await findServerRow(deps, row.id);
      if (fresh) await refreshServer(deps, fresh);
      return reply.redirect(`${back}?mcp_server=${row.id}`, 302);
    },
  );
}
