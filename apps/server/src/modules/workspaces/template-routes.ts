import type { FastifyInstance } from "fastify";

/** Saved setups: templates of a workspace (H-tpl). */
export async function templateRoutes(_app: FastifyInstance): Promise<void> {}
