import {
  SHARE_ROUTES,
  SHARE_VIEWS_PER_MINUTE,
  ZCreateShare,
  ZShareCreated,
  ZSharedView,
  ZShareEventsQuery,
  ZShareList,
  ZShareOne,
  ZShareParams,
  ZShareSessionParams,
  ZShareTokenParams,
  ZWorkspaceShareList,
  ZWorkspaceSharesParams,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { shareRoom } from "../../platform/realtime-rooms";
import { openSse } from "../../platform/sse";
import { requireAgreement } from "../agreements/require-agreement";
import type { DocumentStore } from "../documents/document-store";
import { findSharedImage } from "../images/find-image";
import { ZImageParams, ZImageQuery } from "../images/routes";
import { sendImage } from "../images/send-image";
import { lastEventSeq } from "../orchestration/run-events";
import { findSessionFor } from "../sessions/find-session";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";
import { buildSharedView } from "./build-shared-view";
import { createShareStreamCounter } from "./count-share-streams";
import { createShareLink } from "./create-share-link";
import { findWorkingShare, openShare, shareNotFound } from "./find-working-share";
import { listShareLinks, listWorkspaceShareLinks } from "./list-share-links";
import { revokeShareLink } from "./revoke-share-link";
import { SHARE_GONE, streamShareEvents } from "./stream-share-events";

const tags = ["shares"];
/** Viewers without an account read these: a tighter budget per address than the API's. */
const publicLimit = { rateLimit: { max: SHARE_VIEWS_PER_MINUTE, timeWindow: 60_000 } };

/**
 * Read-only share links to a session or a run (decision 045). Members make and list them; the
 * link's creator or a workspace admin revokes one; owners and admins list the whole
 * workspace's (decision 051). Viewers need no account: the public
 * routes take the token alone, need no CSRF token (they only read) and are rate limited.
 * Every answer here, errors included, carries `X-Robots-Tag: noindex, nofollow`.
 */
export async function shareRoutes(
  app: FastifyInstance,
  options: { imageStore: DocumentStore },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const publicUrl = app.config.publicUrl;
  const streams = createShareStreamCounter(app.config.shareStreams);
  // Open live streams end when the server closes, instead of holding its shutdown.
  const closing = new AbortController();
  app.addHook("preClose", async () => closing.abort());
  app.addHook("onRequest", async (_request, reply) => {
    reply.header("x-robots-tag", "noindex, nofollow");
  });

  r.post(
    SHARE_ROUTES.sessionShares,
    {
      schema: {
        tags,
        summary:
          "Makes a read-only link to the session or one of its runs (members and above); costs, names and live streaming only when chosen",
        params: ZShareSessionParams,
        body: ZCreateShare,
        response: { 201: ZShareCreated },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const session = await findSessionFor(app.db, user.id, request.params.id, {
        least: "member",
      });
      const share = await createShareLink(app.db, {
        sessionId: session.id,
        userId: user.id,
        publicUrl,
        body: request.body,
      });
      reply.status(201);
      return { share, url: share.url };
    },
  );

  r.get(
    SHARE_ROUTES.sessionShares,
    {
      schema: {
        tags,
        summary: "The session's share links, newest first, revoked and expired ones included",
        params: ZShareSessionParams,
        response: { 200: ZShareList },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const session = await findSessionFor(app.db, user.id, request.params.id, {
        least: "member",
      });
      reply.header("cache-control", "no-store");
      return { shares: await listShareLinks(app.db, session.id, publicUrl) };
    },
  );

  r.delete(
    SHARE_ROUTES.share,
    {
      schema: {
        tags,
        summary: "Revokes a share link at once (its creator, or an admin of the workspace)",
        params: ZShareParams,
        response: { 200: ZShareOne },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const share = await revokeShareLink(app.db, {
        shareId: request.params.id,
        userId: user.id,
        publicUrl,
      });
      // Its live streams, on every instance, end now rather than at their next check.
      app.realtime.io.to(shareRoom(share.id)).emit(SHARE_GONE);
      return { share };
    },
  );

  r.get(
    SHARE_ROUTES.workspaceShares,
    {
      schema: {
        tags,
        summary:
          "Every share link of the workspace's sessions, newest first (owners and admins), with each session's title: one list to find and revoke them",
        params: ZWorkspaceSharesParams,
        response: { 200: ZWorkspaceShareList },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const access = await requireWorkspaceAccess(app.db, user.id, request.params.id, "admin");
      reply.header("cache-control", "no-store");
      return { shares: await listWorkspaceShareLinks(app.db, access.workspaceId, publicUrl) };
    },
  );

  r.get(
    SHARE_ROUTES.publicView,
    {
      config: publicLimit,
      schema: {
        tags,
        summary:
          "The shared session or run, read-only, for anyone with the link (no sign-in). Unknown, revoked and expired links all answer 404",
        params: ZShareTokenParams,
        response: { 200: ZSharedView },
      },
    },
    async (request, reply) => {
      const share = await openShare(app.db, request.params.token);
      const lastSeq = await lastEventSeq(app.orchestration.deps, share.session_id);
      reply.header("cache-control", "no-store");
      return buildSharedView(app.db, share, lastSeq);
    },
  );

  r.get(
    SHARE_ROUTES.publicImage,
    {
      // A shared page shows several pictures: a budget of its own, wider than the views'.
      config: { rateLimit: { max: SHARE_VIEWS_PER_MINUTE * 4, timeWindow: 60_000 } },
      schema: {
        tags,
        summary:
          "An image a model made in the shared session (or run), through the link (decision 064)",
        params: ZShareTokenParams.extend(ZImageParams.shape),
        querystring: ZImageQuery,
      },
    },
    async (request, reply) => {
      const share = await findWorkingShare(app.db, request.params.token);
      if (!share) throw shareNotFound();
      const image = await findSharedImage(
        app.db,
        { sessionId: share.session_id, runId: share.run_id },
        request.params.id,
      );
      return sendImage(reply, options.imageStore, image, request.query.download === "1");
    },
  );

  r.get(
    SHARE_ROUTES.publicEvents,
    {
      config: publicLimit,
      schema: {
        tags,
        summary:
          "A live link's run events after `after`, as Server-Sent Events (open, run…, end when the link is revoked or expires)",
        params: ZShareTokenParams,
        querystring: ZShareEventsQuery,
      },
    },
    async (request, reply) => {
      const share = await findWorkingShare(app.db, request.params.token);
      if (!share?.live) throw shareNotFound();
      const release = streams.open(request.ip, share.id);
      try {
        const stream = openSse(reply);
        await streamShareEvents(app.orchestration.deps, stream, {
          share,
          after: request.query.after,
          closing: closing.signal,
        }).catch((error: unknown) => {
          request.log.error({ err: error, shareId: share.id }, "share stream failed");
        });
      } finally {
        release();
      }
    },
  );
}
