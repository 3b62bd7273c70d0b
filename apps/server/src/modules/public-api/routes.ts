import type { FastifyInstance } from "fastify";

/** The OpenAI-compatible API under /api/v1. Placeholder until the module fills it in. */
export async function publicApiRoutes(_app: FastifyInstance): Promise<void> {}
