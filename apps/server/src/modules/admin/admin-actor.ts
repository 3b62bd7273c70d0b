import type { FastifyRequest } from "fastify";
import { type Principal, requireAdmin } from "../../platform/auth";
import type { AdminActor } from "./record-admin-action";

/** The admin this request acts as; the guard hook has already let only admins through. */
export async function actorOf(request: FastifyRequest): Promise<AdminActor> {
  const { user }: Principal = await requireAdmin(request);
  return { id: user.id, email: user.email, requestId: request.id };
}
