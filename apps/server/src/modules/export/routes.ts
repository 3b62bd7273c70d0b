import type { FastifyInstance } from "fastify";

/** A session as Markdown, JSON or PDF; importing a JSON export (H-export). */
export async function exportRoutes(_app: FastifyInstance): Promise<void> {}
