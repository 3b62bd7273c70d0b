import { ZUpdateProfileRequest, ZUserResponse } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { updateProfile } from "./update-profile";

const tags = ["users"];

export async function userRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/users/profile",
    {
      schema: { tags, summary: "The signed-in user's profile", response: { 200: ZUserResponse } },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return { user };
    },
  );

  r.put(
    "/api/users/profile",
    {
      schema: {
        tags,
        summary: "Change the signed-in user's names or photo (fields left out stay as they are)",
        body: ZUpdateProfileRequest,
        response: { 200: ZUserResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const body = request.body;
      const updated = await updateProfile(app.db, user.id, {
        firstName: body.firstName,
        lastName: body.lastName,
        displayName: body.displayName,
        photoUrl: body.photoURL !== undefined ? body.photoURL : body.avatar,
      });
      return { user: updated };
    },
  );
}
