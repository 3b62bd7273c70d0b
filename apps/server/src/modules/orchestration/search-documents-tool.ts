import { STEP_PASSAGES_MAX, type TRunPassage } from "@cohort/contracts";
import { z } from "zod";
import type { ToolDefinition } from "../tools/tool-definition";
import { insertRunPassages } from "./material-store";
import { anyWordOf, numberPassage } from "./retrieve-passages";
import { type RunContext, track } from "./run-context";

const ZSearchDocumentsInput = z.object({
  query: z.string().trim().min(1).max(500).describe("What to look for in the documents"),
});

/**
 * The built-in `search_documents` (decision 058): the run's own retrieval
 * (decision 037) as a tool a lane calls when it needs more than the passages it was given.
 * Passages keep the run's numbering, so `[n]` cites them as today. Documents are text from
 * outside the prompt: its output is untrusted.
 */
export function searchDocumentsTool(
  ctx: RunContext,
): ToolDefinition<z.infer<typeof ZSearchDocumentsInput>> | null {
  const search = ctx.deps.documents;
  const documentIds = ctx.material.documents.map((d) => d.id);
  if (!search || documentIds.length === 0) return null;
  return {
    name: "search_documents",
    title: "Search documents",
    description:
      "Searches the documents attached to this session and returns numbered passages; cite a passage you use as [n].",
    input: { kind: "zod", schema: ZSearchDocumentsInput },
    risk: "read",
    source: { kind: "builtin" },
    price: 0,
    untrustedOutput: true,
    timeoutMs: 20_000,
    async execute({ query }) {
      const found = await search.search({
        workspaceId: ctx.workspaceId,
        query: anyWordOf(query),
        documentIds,
        limit: STEP_PASSAGES_MAX,
      });
      const added: TRunPassage[] = [];
      const passages = found.map((p) => numberPassage(ctx.material.passages, p, added));
      if (added.length > 0) track(ctx, () => insertRunPassages(ctx.deps.db, ctx.runId, added));
      if (passages.length === 0) return { text: "No passage of the attached documents matched." };
      return {
        text: passages
          .map((p) => {
            const where = [p.document_name, p.page === null ? null : `page ${p.page}`, p.section]
              .filter(Boolean)
              .join(" — ");
            return `[${p.n}] ${where}\n${p.text.trim()}`;
          })
          .join("\n\n"),
        data: { passages: passages.map((p) => p.n) },
      };
    },
  };
}
