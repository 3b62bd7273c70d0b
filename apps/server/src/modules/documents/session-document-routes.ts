import { ZPutSessionDocumentsRequest, ZSessionDocumentsResponse } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAgreement } from "../agreements/require-agreement";
import { findSessionFor } from "../sessions/find-session";
import { documentSearch } from "./document-search";
import { listSessionDocuments, replaceSessionDocuments } from "./session-documents";

const tags = ["documents"];
const params = z.object({ id: z.string() });

/**
 * The documents attached to a session (decision 037): its runs plan with them, retrieve
 * passages from them and cite them. Members of the session's workspace read them (viewer+)
 * and change them (member+); only documents of the same workspace can be attached.
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
      const session = await findSessionFor(app.db, user.id, request.params.id);
      reply.header("cache-control", "no-store");
      return {
        documents: await listSessionDocuments(app.db, search, session.workspaceId, session.id),
      };
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
      const session = await findSessionFor(app.db, user.id, request.params.id, {
        least: "member",
      });
      const { workspaceId } = session;
      await replaceSessionDocuments(
        app.db,
        search,
        workspaceId,
        session.id,
        request.body.document_ids,
      );
      return { documents: await listSessionDocuments(app.db, search, workspaceId, session.id) };
    },
  );
}
