import {
  ZAdminOverview,
  ZAdminOverviewQuery,
  ZAdminWorkspacesQuery,
  ZAdminWorkspacesResponse,
  ZAuthResponse,
  ZLoginRequest,
  ZOutboxResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireAdmin } from "../../platform/auth";
import { listOutbox } from "../../platform/mail";
import { authDeps } from "../auth/auth-deps";
import { logIn } from "../auth/log-in";
import { loginMeta, replySignedIn } from "../auth/reply-signed-in";
import { agreementRoutes } from "./agreement-routes";
import { getAdminOverview } from "./get-admin-overview";
import { listAdminWorkspaces } from "./list-admin-workspaces";
import { logRoutes } from "./log-routes";
import { modelRoutes } from "./model-routes";
import { type UserRoutesOptions, userRoutes } from "./user-routes";

const tags = ["admin"];
const LOGIN_URL = "/api/admin/login";

/** What the admin API needs from outside it: see UserRoutesOptions. */
export type AdminRoutesOptions = UserRoutesOptions;

/**
 * The admin API (every route behind one guard): sign-in, the overview and the dev outbox
 * here; users, agreements, models and the logs in their own files, registered here.
 */
export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = authDeps(app);

  // One guard for every admin route but the sign-in, so a route added here later cannot
  // forget it: an anonymous caller gets 401 and a signed-in non-admin 403. It runs after
  // validation, like every guard in the app (a malformed request is a 400 for anyone).
  app.addHook("preHandler", async (request) => {
    if (request.routeOptions.url !== LOGIN_URL) await requireAdmin(request);
  });
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  r.post(
    LOGIN_URL,
    {
      schema: {
        tags,
        summary: "Admin sign-in; anyone who is not an admin gets the same 401 as a wrong password",
        body: ZLoginRequest,
        response: { 200: ZAuthResponse },
      },
    },
    async (request, reply) => {
      const signedIn = await logIn(
        deps,
        request.body,
        loginMeta(app, request, request.body.email),
        { role: "admin" },
      );
      return replySignedIn(app, reply, signedIn);
    },
  );

  r.get(
    "/api/admin/overview",
    {
      schema: {
        tags,
        summary:
          "Per-day sign-ups, active users, runs, CoChat messages, revenue and credits; provider health",
        querystring: ZAdminOverviewQuery,
        response: { 200: ZAdminOverview },
      },
    },
    async (request) =>
      getAdminOverview(
        app.db,
        { gateway: app.models, stats: app.modelCallStats },
        request.query.days,
      ),
  );

  r.get(
    "/api/admin/outbox",
    {
      schema: {
        tags,
        summary: "The dev outbox: emails kept instead of sent, newest first",
        response: { 200: ZOutboxResponse },
      },
    },
    async () => ({ messages: await listOutbox(app.db) }),
  );

  await userRoutes(app, options);

  r.get(
    "/api/admin/workspaces",
    {
      schema: {
        tags,
        summary:
          "Team workspaces, newest first: members with roles and monthly caps, the pool's balance and this month's spend",
        querystring: ZAdminWorkspacesQuery,
        response: { 200: ZAdminWorkspacesResponse },
      },
    },
    async (request) => listAdminWorkspaces(app.db, request.query),
  );

  await agreementRoutes(app);
  await modelRoutes(app);
  await logRoutes(app);
}
