import {
  WORKSPACE_MESSAGES,
  ZChangeMemberRole,
  ZWorkspaceMemberList,
  ZWorkspaceMemberParams,
  ZWorkspaceMemberRemoved,
  ZWorkspaceParams,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { changeMemberRole } from "./change-member-role";
import { listWorkspaceMembers } from "./list-workspace-members";
import { memberNotFound, personalWorkspaceRefused } from "./member-rules";
import { removeMember } from "./remove-member";
import { requireWorkspaceAccess } from "./workspace-access";

const tags = ["workspaces"];

/** A workspace's members: the list, role changes, removal and leaving. */
export async function memberRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/workspaces/:id/members",
    {
      schema: {
        tags,
        summary: "The workspace's members with their roles, owners first (any member)",
        params: ZWorkspaceParams,
        response: { 200: ZWorkspaceMemberList },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id);
      reply.header("cache-control", "no-store");
      return { members: await listWorkspaceMembers(app.db, access.workspaceId) };
    },
  );

  r.patch(
    "/api/workspaces/:id/members/:userId",
    {
      schema: {
        tags,
        summary:
          "Changes a member's role (admins: member/viewer; owners: any; the last owner stays)",
        params: ZWorkspaceMemberParams,
        body: ZChangeMemberRole,
        response: { 200: ZWorkspaceMemberList },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id, "admin");
      if (access.kind === "personal") {
        throw personalWorkspaceRefused(WORKSPACE_MESSAGES.personalNoMembers);
      }
      await changeMemberRole(app.db, app.realtime, {
        workspaceId: access.workspaceId,
        actorId: user.id,
        userId: request.params.userId,
        role: request.body.role,
      });
      return { members: await listWorkspaceMembers(app.db, access.workspaceId) };
    },
  );

  r.delete(
    "/api/workspaces/:id/members/:userId",
    {
      schema: {
        tags,
        summary:
          "Removes a member (admins: members and viewers; owners: anyone) or, with your own id, leaves",
        params: ZWorkspaceMemberParams,
        response: { 200: ZWorkspaceMemberRemoved },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const { id, userId } = request.params;
      const leaving = userId === user.id;
      const access = await requireWorkspaceAccess(
        app.db,
        user.id,
        id,
        leaving ? "viewer" : "admin",
      );
      if (access.kind === "personal") {
        if (leaving) throw personalWorkspaceRefused(WORKSPACE_MESSAGES.personalNotLeavable);
        throw memberNotFound();
      }
      await removeMember(app.db, app.realtime, {
        workspaceId: access.workspaceId,
        actorId: user.id,
        userId,
      });
      return { removed: true as const };
    },
  );
}
