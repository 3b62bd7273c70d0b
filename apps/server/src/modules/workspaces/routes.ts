import {
  WORKSPACE_MESSAGES,
  ZCreateWorkspace,
  ZDeleteWorkspace,
  ZRenameWorkspace,
  ZWorkspaceAuditPage,
  ZWorkspaceAuditQuery,
  ZWorkspaceDeleted,
  ZWorkspaceList,
  ZWorkspaceOne,
  ZWorkspaceParams,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { createWorkspace } from "./create-workspace";
import { type BeforeWorkspaceDeleted, deleteWorkspace } from "./delete-workspace";
import { invitationRoutes } from "./invitation-routes";
import { listWorkspaceAudit } from "./list-workspace-audit";
import { memberRoutes } from "./member-routes";
import { personalWorkspaceRefused } from "./member-rules";
import { renameWorkspace } from "./rename-workspace";
import { requireWorkspaceAccess, workspaceNotFound } from "./workspace-access";
import { findWorkspace, listWorkspaces } from "./workspace-row";

const tags = ["workspaces"];

export interface WorkspaceRoutesOptions {
  /** Stops runs, releases holds and deletes files of a team about to be deleted (app.ts). */
  beforeDeleted: BeforeWorkspaceDeleted;
}

/**
 * Workspaces (decision 040): the caller's list, team creation, rename and delete, the audit
 * log; members and invitations are in their own files, registered here.
 */
export async function workspaceRoutes(
  app: FastifyInstance,
  options: WorkspaceRoutesOptions,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/workspaces",
    {
      schema: {
        tags,
        summary:
          "The caller's workspaces with their role in each: personal first, then teams by name",
        response: { 200: ZWorkspaceList },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return { workspaces: await listWorkspaces(app.db, user.id) };
    },
  );

  r.post(
    "/api/workspaces",
    {
      schema: {
        tags,
        summary: "Creates a team workspace; the caller is its owner",
        body: ZCreateWorkspace,
        response: { 201: ZWorkspaceOne },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const workspace = await createWorkspace(app.db, user.id, request.body.name);
      return reply.code(201).send({ workspace });
    },
  );

  r.get(
    "/api/workspaces/:id",
    {
      schema: {
        tags,
        summary: "One workspace with the caller's role (any member)",
        params: ZWorkspaceParams,
        response: { 200: ZWorkspaceOne },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const workspace = await findWorkspace(app.db, user.id, request.params.id);
      if (!workspace) throw workspaceNotFound();
      reply.header("cache-control", "no-store");
      return { workspace };
    },
  );

  r.patch(
    "/api/workspaces/:id",
    {
      schema: {
        tags,
        summary: "Renames a workspace (owner)",
        params: ZWorkspaceParams,
        body: ZRenameWorkspace,
        response: { 200: ZWorkspaceOne },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id, "owner");
      return {
        workspace: await renameWorkspace(app.db, user.id, access.workspaceId, request.body.name),
      };
    },
  );

  r.delete(
    "/api/workspaces/:id",
    {
      schema: {
        tags,
        summary:
          "Deletes a team workspace with its sessions, documents, templates and credit pool (owner; confirm with its name)",
        params: ZWorkspaceParams,
        body: ZDeleteWorkspace,
        response: { 200: ZWorkspaceDeleted },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id, "owner");
      if (access.kind === "personal") {
        throw personalWorkspaceRefused(WORKSPACE_MESSAGES.personalNotDeletable);
      }
      await deleteWorkspace(
        app.db,
        app.realtime,
        options.beforeDeleted,
        access.workspaceId,
        request.body.confirm_name,
      );
      return { deleted: true as const };
    },
  );

  r.get(
    "/api/workspaces/:id/audit",
    {
      schema: {
        tags,
        summary: "The workspace's audit log, newest first; page with before=<last id> (admin)",
        params: ZWorkspaceParams,
        querystring: ZWorkspaceAuditQuery,
        response: { 200: ZWorkspaceAuditPage },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id, "admin");
      reply.header("cache-control", "no-store");
      return listWorkspaceAudit(app.db, access.workspaceId, request.query);
    },
  );

  await memberRoutes(app);
  await invitationRoutes(app);
}
