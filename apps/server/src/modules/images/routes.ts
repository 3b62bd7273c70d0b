import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAgreement } from "../agreements/require-agreement";
import type { DocumentStore } from "../documents/document-store";
import { findImageFor } from "./find-image";
import { sendImage } from "./send-image";

export const ZImageParams = z.object({ id: z.string().max(64) });
export const ZImageQuery = z.object({ download: z.enum(["1"]).optional() });

/**
 * Images image models made in runs (decision 064), served to whoever may read their session;
 * a share link's readers get them through the share's own route (export module).
 */
export async function imageRoutes(
  app: FastifyInstance,
  options: { store: DocumentStore },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/images/:id",
    {
      schema: {
        tags: ["images"],
        summary: "An image a model made in one of your sessions (?download=1: as a file)",
        params: ZImageParams,
        querystring: ZImageQuery,
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const image = await findImageFor(app.db, user.id, request.params.id);
      return sendImage(reply, options.store, image, request.query.download === "1");
    },
  );
}
