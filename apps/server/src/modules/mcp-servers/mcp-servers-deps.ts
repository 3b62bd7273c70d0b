import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client";
import type { SsrfGuard } from "../../platform/ssrf";
import type { KeyRing } from "../users/api-key-crypto";
import type { McpLimits } from "./mcp-connection";
import type { OperatorMcpServer } from "./operator-servers";

/** What the MCP-client services need from the app, so they stay plain functions. */
export interface McpServersDeps {
  db: Db;
  keyRing: KeyRing;
  ssrf: SsrfGuard;
  limits: McpLimits;
  operator: readonly OperatorMcpServer[];
  /** Where an OAuth authorization server sends the person back to. */
  oauthRedirectUrl: string;
}

export function mcpServersDeps(app: FastifyInstance): McpServersDeps {
  const config = app.config;
  return {
    db: app.db,
    keyRing: { current: config.encryptionKey, previous: config.previousEncryptionKeys },
    ssrf: app.ssrf,
    limits: {
      connectTimeoutMs: config.mcpServers.connectTimeoutMs,
      callTimeoutMs: config.mcpServers.callTimeoutMs,
    },
    operator: config.mcpServers.operator,
    oauthRedirectUrl: `${config.publicUrl}/api/mcp-servers/oauth/callback`,
  };
}
