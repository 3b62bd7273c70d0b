import { readFileSync } from "node:fs";
import { MCP_SERVER_NAME_MAX, MCP_URL_MAX, mcpSlug } from "@cohort/contracts";
import { z } from "zod";

/**
 * The operator's MCP servers (MCP_SERVERS_FILE, decision 060): offered to every user's runs,
 * listed read-only in Settings. This file is the only place a stdio server may be named: it
 * is started with the fixed argv written here, never through a shell, and nothing a user
 * sends can change it.
 */
const ZRemote = z.object({
  name: z.string().trim().min(1).max(MCP_SERVER_NAME_MAX),
  transport: z.enum(["streamable_http", "sse"]).default("streamable_http"),
  url: z.url().max(MCP_URL_MAX),
  /** Sent with every request (e.g. { "authorization": "Bearer …" }). */
  headers: z.record(z.string(), z.string()).default({}),
  /** Whether the URL may reach a private or loopback address (a server on the same host or
   * LAN); cloud metadata addresses stay refused. */
  allow_private_network: z.boolean().default(false),
});
const ZStdio = z.object({
  name: z.string().trim().min(1).max(MCP_SERVER_NAME_MAX),
  transport: z.literal("stdio"),
  /** The program, an absolute path; with `args` it is the whole argv (no shell). */
  command: z.string().startsWith("/", "must be an absolute path"),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});
const ZOperatorFile = z.object({
  servers: z.array(z.union([ZStdio, ZRemote])),
});

export type OperatorMcpServer = (z.infer<typeof ZRemote> | z.infer<typeof ZStdio>) & {
  /** "operator:<slug>": stable across restarts, never a uuid (so never a row's id). */
  id: string;
  slug: string;
};

const OPERATOR_ID_PREFIX = "operator:";

/** Whether an MCP server id names one of the operator's servers rather than a stored one. */
export function isOperatorServerId(id: string): boolean {
  return id.startsWith(OPERATOR_ID_PREFIX);
}

export function parseOperatorMcpServers(json: unknown): OperatorMcpServer[] {
  const parsed = ZOperatorFile.safeParse(json);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  }
  const seen = new Set<string>();
  return parsed.data.servers.map((server) => {
    const slug = mcpSlug(server.name);
    if (seen.has(slug)) throw new Error(`two servers are named "${slug}"`);
    seen.add(slug);
    return { ...server, id: `${OPERATOR_ID_PREFIX}${slug}`, slug };
  });
}

export function readOperatorMcpServers(file: string): OperatorMcpServer[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
  return parseOperatorMcpServers(json);
}
