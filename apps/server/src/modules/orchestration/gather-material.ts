import { RUN_MEMORIES_MAX } from "@cohort/contracts";
import { insertRunMemories } from "./material-store";
import type { RunContext } from "./run-context";
import { track } from "./run-context";

type Memories = NonNullable<RunContext["deps"]["memories"]>;
type Material = [
  attached: Awaited<ReturnType<typeof readyDocuments>>,
  used: Awaited<ReturnType<Memories["find"]>>,
];

/** Reads started before the run executes (`prefetchMaterial`), taken by `gatherMaterial`. */
const prefetched = new WeakMap<RunContext, Promise<Material>>();

/**
 * Starts the material's reads as the run is stored, so they overlap the storing statement
 * and the run's dispatch rather than following them before the planning call (decision 072:
 * the head's round trips). Reads only; a refused start leaves nothing behind.
 */
export function prefetchMaterial(ctx: RunContext): void {
  if (!prefetched.has(ctx)) prefetched.set(ctx, readMaterial(ctx));
}

/**
 * Before planning (decision 037): the session's attached documents that are ready to search
 * (the plan names them by ref, d1, d2, …) and the user's approved memories relevant to the
 * request. Either one failing is logged and the run goes on without it: material helps a
 * run, it never stops one.
 */
export async function gatherMaterial(ctx: RunContext): Promise<void> {
  const [attached, used] = await (prefetched.get(ctx) ?? readMaterial(ctx));
  prefetched.delete(ctx);
  ctx.material.documents.push(
    ...attached.map((d, i) => ({ ref: `d${i + 1}`, id: d.id, name: d.name, pages: d.pages })),
  );
  ctx.material.memories.push(...used.slice(0, RUN_MEMORIES_MAX));
  if (ctx.material.memories.length > 0) {
    const chosen = [...ctx.material.memories];
    track(ctx, () => insertRunMemories(ctx.deps.db, ctx.runId, chosen));
  }
}

/** Never rejects: each part that fails is logged and read as none. */
function readMaterial(ctx: RunContext): Promise<Material> {
  const { documents, memories } = ctx.deps;
  return Promise.all([
    documents
      ? readyDocuments(ctx).catch((error: unknown) => {
          ctx.deps.log.warn({ err: error, runId: ctx.runId }, "attached documents not read");
          return [];
        })
      : [],
    memories
      ? memories
          .find({
            workspaceId: ctx.workspaceId,
            userId: ctx.userId,
            task: ctx.message.content,
            limit: RUN_MEMORIES_MAX,
          })
          .catch((error: unknown) => {
            ctx.deps.log.warn({ err: error, runId: ctx.runId }, "memories not read");
            return [];
          })
      : [],
  ]);
}

async function readyDocuments(ctx: RunContext) {
  const documents = ctx.deps.documents;
  if (!documents) return [];
  const ids = await documents.attached(ctx.sessionId);
  if (ids.length === 0) return [];
  const described = await documents.describe(ctx.workspaceId, ids);
  const byId = new Map(described.map((d) => [d.id, d]));
  // In the order they were attached; a document still processing or failed cannot be searched.
  return ids.flatMap((id) => {
    const d = byId.get(id);
    return d && d.status === "ready" ? [d] : [];
  });
}
