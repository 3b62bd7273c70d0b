import {
  ERROR_CODES,
  parseDocumentIds,
  ZDocumentSearchQuery,
  ZDocumentSearchResponse,
  ZPassageParams,
  ZPassageResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import { findWorkspaceAccess, requireWorkspaceAccess } from "../workspaces/workspace-access";
import type { Searcher } from "./document-search";
import { findPassage } from "./find-chunks";

const tags = ["documents"];

/**
 * Search over a workspace's ready documents, and one passage by its id (what a citation
 * opens); a passage of a workspace the caller is not in answers 404.
 */
export async function searchRoutes(app: FastifyInstance, searcher: Searcher): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/documents/search",
    {
      schema: {
        tags,
        summary:
          "Search a workspace's ready documents (the personal one by default); snippets mark matches with U+E000/U+E001",
        querystring: ZDocumentSearchQuery,
        response: { 200: ZDocumentSearchResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const { q, document_ids, limit, workspace_id } = request.query;
      const workspace = await requireWorkspaceAccess(app.db, user.id, workspace_id);
      const ids = document_ids === undefined ? undefined : parseDocumentIds(document_ids);
      const result = await searcher.search({
        workspaceId: workspace.workspaceId,
        query: q,
        documentIds: ids,
        limit,
      });
      return { query: q, ...result };
    },
  );

  r.get(
    "/api/documents/passages/:chunkId",
    {
      schema: {
        tags,
        summary: "One passage of a document the user can read (for citations)",
        params: ZPassageParams,
        response: { 200: ZPassageResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const found = await findPassage(app.db, request.params.chunkId);
      const readable = found && (await findWorkspaceAccess(app.db, user.id, found.workspaceId));
      if (!found || !readable) throw new AppError(ERROR_CODES.notFound, 404, "Passage not found.");
      return { passage: found.passage };
    },
  );
}
