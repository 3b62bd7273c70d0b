import type { FastifyInstance } from "fastify";

/** The MCP server at /api/mcp. Placeholder until the module fills it in. */
export async function mcpRoutes(_app: FastifyInstance): Promise<void> {}
