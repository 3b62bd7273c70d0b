import {
  WORKSPACE_ERROR_CODES,
  WORKSPACE_MESSAGES,
  ZCreateInvitation,
  ZInvitationPreview,
  ZInvitationPublicPreview,
  ZInvitationTokenParams,
  ZWorkspaceInvitationList,
  ZWorkspaceInvitationOne,
  ZWorkspaceInvitationParams,
  ZWorkspaceInvitationRevoked,
  ZWorkspaceOne,
  ZWorkspaceParams,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { consumeAttempt, THROTTLE } from "../auth/throttle";
import {
  acceptInvitation,
  previewInvitation,
  previewInvitationPublicly,
} from "./accept-invitation";
import { createInvitation } from "./create-invitation";
import { notifyWorkspaceChanged } from "./drop-member-sockets";
import { invitationEmail } from "./invitation-email";
import { listInvitations } from "./list-invitations";
import { personalWorkspaceRefused } from "./member-rules";
import { revokeInvitation } from "./revoke-invitation";
import { requireWorkspaceAccess } from "./workspace-access";

const tags = ["workspaces"];

/** Invitations by email: sending, the pending list, withdrawing, and the invitee's side. */
export async function invitationRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/workspaces/:id/invitations",
    {
      schema: {
        tags,
        summary:
          "Invites an address by email with a single-use link that expires (admin; admins are invited by owners)",
        params: ZWorkspaceParams,
        body: ZCreateInvitation,
        response: { 201: ZWorkspaceInvitationOne },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id, "admin");
      if (access.kind === "personal") {
        throw personalWorkspaceRefused(WORKSPACE_MESSAGES.personalNoMembers);
      }
      // An invitation mails a person's text to any address: only a proven address sends
      // them, and at most a few per hour per inviter and per address, like password resets
      // (decision 052).
      if (!user.emailVerified) {
        throw new AppError(
          WORKSPACE_ERROR_CODES.inviterUnverified,
          403,
          WORKSPACE_MESSAGES.inviterUnverified,
        );
      }
      const { email, role } = request.body;
      await consumeAttempt(
        app.db,
        [THROTTLE.invitePerInviter(user.id), THROTTLE.invitePerAddress(email.toLowerCase())],
        "invitations",
      );
      const created = await createInvitation(app.db, {
        workspaceId: access.workspaceId,
        actorId: user.id,
        email,
        role,
      });
      app.mailer.sendLater(
        invitationEmail(
          app.config.publicUrl,
          {
            email,
            role,
            workspaceName: created.workspaceName,
            inviterName: user.displayName,
            inviterEmail: user.email,
          },
          created.token,
        ),
      );
      return reply.code(201).send({ invitation: created.invitation });
    },
  );

  r.get(
    "/api/workspaces/:id/invitations",
    {
      schema: {
        tags,
        summary: "The workspace's pending invitations, newest first (admin)",
        params: ZWorkspaceParams,
        response: { 200: ZWorkspaceInvitationList },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id, "admin");
      reply.header("cache-control", "no-store");
      return { invitations: await listInvitations(app.db, access.workspaceId) };
    },
  );

  r.delete(
    "/api/workspaces/:id/invitations/:invitationId",
    {
      schema: {
        tags,
        summary: "Withdraws a pending invitation; its link stops working (admin)",
        params: ZWorkspaceInvitationParams,
        response: { 200: ZWorkspaceInvitationRevoked },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id, "admin");
      await revokeInvitation(app.db, {
        workspaceId: access.workspaceId,
        actorId: user.id,
        invitationId: request.params.invitationId,
      });
      return { revoked: true as const };
    },
  );

  r.get(
    "/api/invitations/:token",
    {
      schema: {
        tags,
        summary: "What an invitation link offers: workspace, role, inviter, invited address",
        params: ZInvitationTokenParams,
        response: { 200: ZInvitationPreview },
      },
    },
    async (request, reply) => {
      await requireUser(request);
      reply.header("cache-control", "no-store");
      return previewInvitation(app.db, request.params.token);
    },
  );

  r.get(
    "/api/invitations/:token/public",
    {
      schema: {
        tags,
        summary:
          "What a valid invitation link shows signed out: who invited which address to which workspace",
        params: ZInvitationTokenParams,
        response: { 200: ZInvitationPublicPreview },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return previewInvitationPublicly(app.db, request.params.token);
    },
  );

  r.post(
    "/api/invitations/:token/accept",
    {
      schema: {
        tags,
        summary: "Accepts an invitation (once, by the invited address) and joins the workspace",
        params: ZInvitationTokenParams,
        response: { 200: ZWorkspaceOne },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const workspace = await acceptInvitation(app.db, user, request.params.token);
      // The user's other tabs add the workspace to their switcher.
      notifyWorkspaceChanged(app.realtime, user.id, workspace.id, workspace.role);
      return { workspace };
    },
  );
}
