import type { FastifyInstance } from "fastify";

/** A team workspace's pooled credits: balance, per-member caps and usage (H-pool). */
export async function workspaceCreditRoutes(_app: FastifyInstance): Promise<void> {}
