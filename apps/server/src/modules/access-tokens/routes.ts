import type { FastifyInstance } from "fastify";

/** Personal access tokens (Settings). Placeholder until the module fills it in. */
export async function accessTokenRoutes(_app: FastifyInstance): Promise<void> {}
