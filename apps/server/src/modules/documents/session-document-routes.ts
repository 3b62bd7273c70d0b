import type { FastifyInstance } from "fastify";

/** Documents attached to sessions and the passages runs cited. Placeholder until the module fills it in. */
export async function sessionDocumentRoutes(_app: FastifyInstance): Promise<void> {}
