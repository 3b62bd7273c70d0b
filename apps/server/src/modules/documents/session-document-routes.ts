import { ZPutSessionDocumentsRequest, ZSessionDocumentsResponse } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAgreement } from "../agreements/require-agreement";
import { findOwnedSession } from "../sessions/find-session";
import { documentSearch } from "./document-search";
import { listSessionDocuments, replaceSessionDocuments } from "./session-documents";

const tags = ["documents"];
const params = z.object({ id: z.string() });

/**
 * The documents attached to a session (decision 037): its runs plan with them, retrieve
 * passages from them and cite them. The session's owner only (404 otherwise), and only the
 * owner's own documents.
 */
export async function sessionDocumentRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const search = documentSearch(app);

  r.get(
    "/api/sessions/:id/documents",
    {
      schema: {
        tags,
        summary: "The documents attached to a session, oldest attachment first",
        params,
        response: { 200: ZSessionDocumentsResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const session = await findOwnedSession(app.db, user.id, request.params.id);
      reply.header("cache-control", "no-store");
      return { documents: await listSessionDocuments(app.db, search, user.id, session.id) };
    },
  );

  r.put(
    "/api/sessions/:id/documents",
    {
      schema: {
        tags,
        summary: "Replace the set of documents attached to a session ([] detaches all)",
        params,
        body: ZPutSessionDocumentsRequest,
        response: { 200: ZSessionDocumentsResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const session = await findOwnedSession(app.db, user.id, request.params.id);
      await replaceSessionDocuments(app.db, search, user.id, session.id, request.body.document_ids);
      return { documents: await listSessionDocuments(app.db, search, user.id, session.id) };
    },
  );
}
