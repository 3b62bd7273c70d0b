import {
  hasMemoryAccess,
  MEMORY_ERROR_CODES,
  MEMORY_MESSAGES,
  MEMORY_ROUTES,
  ZApproveMemory,
  ZMemoryDeleted,
  ZMemoryExport,
  ZMemoryList,
  ZMemoryListQuery,
  ZMemoryOne,
  ZMemoryParams,
  ZMemoryRunParams,
  ZMemorySettings,
  ZRunMemoryProposals,
  ZSuccessResponse,
  ZUpdateMemory,
  ZUpdateMemorySettings,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { type Principal, requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";
import {
  approveMemory,
  deleteAllMemories,
  deleteMemory,
  rejectMemory,
  updateMemory,
} from "./change-memory";
import { listAllMemories, listMemories, listRunProposals } from "./list-memories";
import { requireMemoryChange } from "./memory-change-access";
import { getMemorySettings, updateMemorySettings } from "./memory-settings";

const tags = ["memory"];

/**
 * Memory is Pro+ and Enterprise ("Memory across sessions" on the pricing page): every route
 * answers 403 `memory_locked` to other plans, with where to upgrade.
 */
async function requireMemoryAccess(request: FastifyRequest): Promise<Principal> {
  const principal = await requireUser(request);
  if (!hasMemoryAccess(principal.user.subscription_tier)) {
    throw new AppError(MEMORY_ERROR_CODES.locked, 403, MEMORY_MESSAGES.locked, {
      tier: principal.user.subscription_tier,
      upgrade_url: "/billing",
    });
  }
  return principal;
}

export interface MemoryRoutesOptions {
  /**
   * Throws unless the user may read the run (a member of its session's workspace): the run
   * engine's check, given by the app (no import loop).
   */
  runReadable(userId: string, runId: string): Promise<void>;
}

/**
 * Memory: a run's proposals, approved memories, the Memory section of Settings. Memories
 * belong to the workspace of the session whose run proposed them (decision 040); the
 * switches, the export and "delete all" are the person's own.
 */
export async function memoryRoutes(
  app: FastifyInstance,
  options: MemoryRoutesOptions,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const gate = { preValidation: requireMemoryAccess };

  r.get(
    MEMORY_ROUTES.list,
    {
      ...gate,
      schema: {
        tags,
        summary:
          "A workspace's approved memories (or, with status=proposed, open proposals), newest first; with q, those matching it, best first; the personal workspace by default (Pro+)",
        querystring: ZMemoryListQuery,
        response: { 200: ZMemoryList },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const { q, status, workspace_id } = request.query;
      const workspace = await requireWorkspaceAccess(app.db, user.id, workspace_id);
      reply.header("cache-control", "no-store");
      return { memories: await listMemories(app.db, workspace.workspaceId, q, status) };
    },
  );

  r.delete(
    MEMORY_ROUTES.list,
    {
      ...gate,
      schema: {
        tags,
        summary: "Deletes every memory the user's runs proposed, proposals included (Pro+)",
        response: { 200: ZMemoryDeleted },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return { deleted: await deleteAllMemories(app.db, user.id) };
    },
  );

  r.get(
    MEMORY_ROUTES.export,
    {
      ...gate,
      schema: {
        tags,
        summary:
          "Every memory the user's runs proposed and the memory settings, as a JSON download (Pro+)",
        response: { 200: ZMemoryExport },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const [memories, settings] = await Promise.all([
        listAllMemories(app.db, user.id),
        getMemorySettings(app.db, user.id),
      ]);
      reply
        .header("cache-control", "no-store")
        .header("content-disposition", 'attachment; filename="cohort-memories.json"');
      return { exported_at: new Date().toISOString(), settings, memories };
    },
  );

  r.get(
    MEMORY_ROUTES.settings,
    {
      ...gate,
      schema: {
        tags,
        summary: "The memory switches: paused, auto-save (Pro+)",
        response: { 200: ZMemorySettings },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return getMemorySettings(app.db, user.id);
    },
  );

  r.put(
    MEMORY_ROUTES.settings,
    {
      ...gate,
      schema: {
        tags,
        summary: "Changes the memory switches given (Pro+)",
        body: ZUpdateMemorySettings,
        response: { 200: ZMemorySettings },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return updateMemorySettings(app.db, user.id, request.body);
    },
  );

  r.get(
    "/api/memory/runs/:runId/proposals",
    {
      ...gate,
      schema: {
        tags,
        summary: "The memories a run proposed, whatever was decided since (Pro+)",
        params: ZMemoryRunParams,
        response: { 200: ZRunMemoryProposals },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const { runId } = request.params;
      await options.runReadable(user.id, runId);
      reply.header("cache-control", "no-store");
      return { run_id: runId, memories: await listRunProposals(app.db, runId) };
    },
  );

  r.post(
    "/api/memory/:id/approve",
    {
      ...gate,
      schema: {
        tags,
        summary: "Approves a proposed memory, with an edited text when given (Pro+)",
        params: ZMemoryParams,
        body: ZApproveMemory,
        response: { 200: ZMemoryOne },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await requireMemoryChange(app.db, user.id, request.params.id);
      return { memory: await approveMemory(app.db, request.params.id, request.body.text) };
    },
  );

  r.post(
    "/api/memory/:id/reject",
    {
      ...gate,
      schema: {
        tags,
        summary: "Rejects a proposed memory (Pro+)",
        params: ZMemoryParams,
        response: { 200: ZMemoryOne },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await requireMemoryChange(app.db, user.id, request.params.id);
      return { memory: await rejectMemory(app.db, request.params.id) };
    },
  );

  r.patch(
    "/api/memory/:id",
    {
      ...gate,
      schema: {
        tags,
        summary: "Edits a memory's text (Pro+)",
        params: ZMemoryParams,
        body: ZUpdateMemory,
        response: { 200: ZMemoryOne },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await requireMemoryChange(app.db, user.id, request.params.id);
      return { memory: await updateMemory(app.db, request.params.id, request.body) };
    },
  );

  r.delete(
    "/api/memory/:id",
    {
      ...gate,
      schema: {
        tags,
        summary: "Deletes one memory (Pro+)",
        params: ZMemoryParams,
        response: { 200: ZSuccessResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await requireMemoryChange(app.db, user.id, request.params.id);
      await deleteMemory(app.db, request.params.id);
      return { success: true as const, message: "The memory was deleted." };
    },
  );
}
