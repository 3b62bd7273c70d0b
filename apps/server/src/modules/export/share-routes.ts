import type { FastifyInstance } from "fastify";

/** Read-only share links to a session or a run (H-share). */
export async function shareRoutes(_app: FastifyInstance): Promise<void> {}
