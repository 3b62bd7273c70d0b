import { ERROR_CODES, MCP_BODY_LIMIT_BYTES, MCP_PATH } from "@cohort/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors";
import {
  authenticateAccessToken,
  type TokenAuth,
} from "../access-tokens/authenticate-access-token";
import { documentSearch } from "../documents/document-search";
import { replaceSessionDocuments } from "../documents/session-documents";
import { createCallRegistry } from "./call-registry";
import type { McpServerDeps } from "./create-mcp-server";

const tags = ["mcp"];

type McpServerModules = [
  typeof import("./create-mcp-server"),
  typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
];
let serverModules: Promise<McpServerModules> | undefined;

/**
 * The MCP SDK's server side loads at the first request to /api/mcp, not at start (it is
 * ~25 MB of an embedded instance's RSS, decision 082); concurrent first requests share one
 * load, and a failed load fails the request as any other error would.
 */
function loadServerModules(): Promise<McpServerModules> {
  serverModules ??= Promise.all([
    import("./create-mcp-server"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
  ]);
  return serverModules;
}

/** A refused token as the API's error, with the challenge MCP clients look for on a 401. */
function refusal(auth: Extract<TokenAuth, { ok: false }>): AppError {
  const headers: Record<string, string> = {};
  if (auth.status === 401) headers["www-authenticate"] = 'Bearer realm="cohort"';
  if (auth.retryAfterSeconds !== undefined) headers["retry-after"] = String(auth.retryAfterSeconds);
  return new AppError(auth.code, auth.status, auth.message, undefined, headers);
}

/**
 * The MCP server at /api/mcp (decision 035): streamable HTTP in stateless mode. Each POST is
 * authenticated by its access token, gets a server of its own bound to the token's owner,
 * and is answered on its own response — an SSE stream when the client accepts one, which
 * carries the call's progress notifications before its result. There is no standalone GET
 * stream and no session to DELETE: both answer 405, as the transport's specification allows.
 */
export async function mcpRoutes(
  app: FastifyInstance,
  options: { redisPrefix: string },
): Promise<void> {
  const calls = createCallRegistry(
    app.redis ? { pub: app.redis, channel: `${options.redisPrefix}mcp:cancel` } : undefined,
  );
  app.addHook("onClose", () => calls.close());
  const documents = documentSearch(app);
  // A new session has nothing attached: replacing its set attaches these (documents of the
  // owner's personal workspace only, whose id is the user's, like the session's).
  const attachDocuments: McpServerDeps["attachDocuments"] = (userId, sessionId, ids) =>
    replaceSessionDocuments(app.db, documents, userId, sessionId, ids);

  app.post(
    MCP_PATH,
    {
      bodyLimit: MCP_BODY_LIMIT_BYTES,
      // Bearer tokens only, never the sign-in cookie: nothing ambient for a forged request to
      // ride on, so a missing header earns the 401 challenge, not a CSRF refusal.
      config: { csrf: false },
      schema: {
        tags,
        summary:
          "The MCP server (Model Context Protocol, streamable HTTP): JSON-RPC requests with `Authorization: Bearer cohort_pat_…`; tools run_team, list_sessions, get_session, search_documents. Use an MCP client; see /api for its configuration",
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const auth = await authenticateAccessToken(app, request, null);
      if (!auth.ok) throw refusal(auth);
      const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await loadServerModules();
      const server = createMcpServer(
        app,
        { principal: auth.principal, tokenId: auth.tokenId, scopes: auth.scopes },
        { calls, attachDocuments, documents, log: request.log },
      );
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      // From here the transport writes the response itself (JSON or an SSE stream).
      reply.hijack();
      reply.raw.setHeader("x-request-id", request.id);
      reply.raw.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );

  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header("allow", "POST");
    throw new AppError(
      ERROR_CODES.methodNotAllowed,
      405,
      "This MCP server is stateless: send every JSON-RPC message as a POST.",
    );
  };
  app.get(MCP_PATH, { schema: { hide: true } }, notAllowed);
  app.delete(MCP_PATH, { schema: { hide: true }, config: { csrf: false } }, notAllowed);
}
