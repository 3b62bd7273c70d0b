import { z } from "zod";

/**
 * MCP servers as tool sources (decision 060): remote servers a user, a workspace's admins or
 * the operator connect; their tools reach runs as `mcp__<slug>__<tool>`. Everything a server
 * says about itself (names, descriptions, answers) is untrusted text: capped here, shown
 * escaped, passed to models only as data.
 */

/** Transports a person may choose; "stdio" only ever comes from the operator's file. */
export const MCP_REMOTE_TRANSPORTS = ["streamable_http", "sse"] as const;
export const MCP_TRANSPORTS = [...MCP_REMOTE_TRANSPORTS, "stdio"] as const;
export type TMcpTransport = (typeof MCP_TRANSPORTS)[number];

export const MCP_SERVER_NAME_MAX = 40;
/** The slug is part of every tool name: `mcp__<slug>__<tool>` stays within 64 characters. */
export const MCP_SLUG_MAX = 20;
export const MCP_TOOL_NAME_MAX = 64;
export const MCP_URL_MAX = 2048;
/** A server's description of a tool is cut here before anyone (person or model) sees it. */
export const MCP_DESCRIPTION_MAX = 1024;
/** At most this many tools of one server are offered. */
export const MCP_TOOLS_PER_SERVER_MAX = 64;
/** An answer larger than this (bytes, as received) is refused as an error row. */
export const MCP_ANSWER_MAX_BYTES = 1024 * 1024;

/** The name a server's slug takes from its display name: lowercase, [a-z0-9_-]. */
export function mcpSlug(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize("NFKD")
      // Accents go with their letters' marks: "Ünïcode" is "unicode".
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, MCP_SLUG_MAX)
      .replace(/-+$/g, "") || "server"
  );
}

/** The name a server's tool has in a run. */
export function mcpToolName(slug: string, tool: string): string {
  return `mcp__${slug}__${tool}`;
}

export const ZMcpAuthInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("bearer"), token: z.string().min(1).max(4096) }),
  z.object({
    kind: z.literal("oauth"),
    /** Scopes to ask for (space-separated); the server's own when left out. */
    scope: z.string().max(512).optional(),
  }),
]);
export type TMcpAuthInput = z.infer<typeof ZMcpAuthInput>;

export const ZCreateMcpServer = z.object({
  workspace_id: z
    .uuid()
    .optional()
    .describe("The team workspace it is for (its admins manage it); the caller's own if left out"),
  name: z.string().trim().min(1).max(MCP_SERVER_NAME_MAX),
  url: z.string().trim().min(1).max(MCP_URL_MAX),
  /** "stdio" is answered 400 `mcp_stdio_refused`: only the operator's file may name one. */
  transport: z.enum(MCP_TRANSPORTS).default("streamable_http"),
  auth: ZMcpAuthInput.default({ kind: "none" }),
  /** Keys a stdio server would need; present only to be refused with a clear message. */
  command: z.unknown().optional(),
});
export type TCreateMcpServer = z.input<typeof ZCreateMcpServer>;

export const MCP_TOOL_RISKS = ["read", "write", "external", "costly"] as const;

export const ZMcpToolInfo = z.object({
  /** The server's own name for it. */
  name: z.string(),
  /** As a run sees it: mcp__<slug>__<name>. */
  qualified_name: z.string(),
  title: z.string(),
  /** The server's description: untrusted, capped at MCP_DESCRIPTION_MAX, shown as text. */
  description: z.string(),
  risk: z.enum(MCP_TOOL_RISKS),
});
export type TMcpToolInfo = z.infer<typeof ZMcpToolInfo>;

export const MCP_SERVER_STATES = [
  /** Not contacted yet. */
  "unknown",
  "connected",
  /** OAuth: the person who added it still has to sign in at the server's provider. */
  "needs_authorization",
  "error",
] as const;
export type TMcpServerState = (typeof MCP_SERVER_STATES)[number];

export const ZMcpServer = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  url: z.string(),
  transport: z.enum(MCP_TRANSPORTS),
  /** Who manages it: the caller, a workspace's admins, or the operator (read-only here). */
  owner: z.enum(["user", "workspace", "operator"]),
  workspace_id: z.string().nullable(),
  auth: z.object({
    kind: z.enum(["none", "bearer", "oauth"]),
    /** Bearer: the last four characters of the stored token. */
    last4: z.string().nullable(),
  }),
  state: z.enum(MCP_SERVER_STATES),
  last_error: z.string().nullable(),
  last_checked_at: z.string().nullable(),
  tools: z.array(ZMcpToolInfo),
  /** Whether the caller may change or remove it. */
  manageable: z.boolean(),
});
export type TMcpServer = z.infer<typeof ZMcpServer>;

export const ZMcpServerResponse = z.object({
  server: ZMcpServer,
  /** OAuth: where to send the person to sign in (then back to Cohort's callback). */
  authorization_url: z.string().nullable(),
});
export type TMcpServerResponse = z.infer<typeof ZMcpServerResponse>;

export const ZMcpServersResponse = z.object({ servers: z.array(ZMcpServer) });
export type TMcpServersResponse = z.infer<typeof ZMcpServersResponse>;

export const ZMcpServerParams = z.object({ id: z.uuid() });

export const ZMcpOAuthCallbackQuery = z.object({
  state: z.string().max(256),
  code: z.string().max(4096).optional(),
  error: z.string().max(256).optional(),
});

export const MCP_SERVER_ERROR_CODES = {
  /** stdio servers are never started from the web app or the API. */
  stdioRefused: "mcp_stdio_refused",
  /** The URL is not http(s) or reaches a private, loopback or metadata address. */
  urlNotAllowed: "mcp_url_not_allowed",
  /** Another server of the same owner has this name (slug). */
  nameTaken: "mcp_name_taken",
  /** An operator's server: listed, never changed here. */
  operatorServer: "mcp_operator_server",
  /** The OAuth callback's state is unknown or expired. */
  oauthStateInvalid: "mcp_oauth_state_invalid",
} as const;

export const MCP_SERVER_MESSAGES = {
  stdioRefused:
    "stdio MCP servers cannot be added from Cohort's web app or API: they start a program on Cohort's server. Connect the server over Streamable HTTP or SSE, or ask the operator to name it in the MCP servers file.",
  nameTaken: (name: string) => `You already have an MCP server named "${name}".`,
  operatorServer: "This MCP server is set up by the operator and cannot be changed here.",
  oauthStateInvalid: "This sign-in link has expired. Start connecting the server again.",
  down: (name: string, reason: string) => `MCP server "${name}" is unreachable: ${reason}`,
  timedOut: (name: string, seconds: number) =>
    `MCP server "${name}" did not answer within ${seconds} s.`,
  tooLarge: (name: string, limitBytes: number) =>
    `MCP server "${name}" answered more than ${Math.round(limitBytes / 1024)} KB; the answer was dropped.`,
} as const;

/** POST /api/mcp-servers/test: what the server answers, before anything is stored. */
export const ZMcpServerTestResponse = z.object({
  state: z.enum(["connected", "error"]),
  last_error: z.string().nullable(),
  tools: z.array(ZMcpToolInfo),
});
export type TMcpServerTestResponse = z.infer<typeof ZMcpServerTestResponse>;
