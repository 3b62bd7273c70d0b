import type { FastifyInstance } from "fastify";

/** Workspaces: list, create, members and roles, invitations, audit log (H-ws). */
export async function workspaceRoutes(_app: FastifyInstance): Promise<void> {}
