import { ZToolListQuery, ZToolListResponse } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireAgreement } from "../agreements/require-agreement";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";
import { toolInfo } from "./tool-registry";

/** What `search_documents` is, for the list (the engine builds it per run, decision 058). */
const SEARCH_DOCUMENTS = {
  name: "search_documents",
  title: "Search documents",
  description:
    "Searches the documents attached to the session and returns numbered passages to cite as [n].",
  risk: "read" as const,
  source: { kind: "builtin" as const },
  price: 0,
  untrusted_output: true,
};

/**
 * GET /api/tools: the tools a workspace's sessions can choose from (for the session setup),
 * and the ones that could be offered but are not, with why (decision 058).
 */
export async function toolRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/tools",
    {
      schema: {
        tags: ["sessions"],
        summary:
          "The tools a session's roles can be given (built-ins and connected MCP servers), and the ones unavailable with the reason",
        querystring: ZToolListQuery,
        response: { 200: ZToolListResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.query.workspace_id);
      const tools = await app.tools.toolsFor({
        userId: user.id,
        workspaceId: access.workspaceId,
        sessionId: request.query.session_id ?? "",
      });
      reply.header("cache-control", "no-store");
      return {
        tools: [
          SEARCH_DOCUMENTS,
          ...tools.filter((t) => t.name !== SEARCH_DOCUMENTS.name).map(toolInfo),
        ],
        unavailable: app.tools.unavailable(),
      };
    },
  );
}
