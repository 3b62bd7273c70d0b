import type { FastifyInstance } from "fastify";

/** Memory: proposals, approved memories, the Memory page. Placeholder until the module fills it in. */
export async function memoryRoutes(_app: FastifyInstance): Promise<void> {}
