import type { FastifyInstance } from "fastify";

/** All my data as one zip; deleting my account (H-data). */
export async function accountDataRoutes(_app: FastifyInstance): Promise<void> {}
