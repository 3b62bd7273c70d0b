import type { FastifyInstance } from "fastify";

/** Documents: upload, index, search, view, download. Placeholder until the module fills it in. */
export async function documentRoutes(_app: FastifyInstance): Promise<void> {}
