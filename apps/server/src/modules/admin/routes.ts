import {
  ZAdminUsersQuery,
  ZAdminUsersResponse,
  ZAgreementResponse,
  ZAuthResponse,
  ZLoginRequest,
  ZOutboxResponse,
  ZPublishAgreementRequest,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireAdmin } from "../../platform/auth";
import { listOutbox } from "../../platform/mail";
import { publishAgreement } from "../agreements/publish-agreement";
import { authDeps } from "../auth/auth-deps";
import { logIn } from "../auth/log-in";
import { replySignedIn, requestMeta } from "../auth/reply-signed-in";
import { listUsers } from "../users/list-users";

const tags = ["admin"];

export async function adminRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = authDeps(app);

  r.post(
    "/api/admin/login",
    {
      schema: {
        tags,
        summary: "Admin sign-in; anyone who is not an admin gets the same 401 as a wrong password",
        body: ZLoginRequest,
        response: { 200: ZAuthResponse },
      },
    },
    async (request, reply) => {
      const signedIn = await logIn(deps, request.body, requestMeta(request), { role: "admin" });
      return replySignedIn(app, reply, signedIn);
    },
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
    async (request, reply) => {
      await requireAdmin(request);
      reply.header("cache-control", "no-store");
      return { messages: await listOutbox(app.db) };
    },
  );

  r.get(
    "/api/admin/users",
    {
      schema: {
        tags,
        summary: "Users, newest first, a page at a time",
        querystring: ZAdminUsersQuery,
        response: { 200: ZAdminUsersResponse },
      },
    },
    async (request) => {
      await requireAdmin(request);
      return listUsers(app.db, request.query);
    },
  );

  r.post(
    "/api/admin/agreements",
    {
      schema: {
        tags,
        summary: "Publish a new agreement version; every user must accept it again",
        body: ZPublishAgreementRequest,
        response: { 201: ZAgreementResponse },
      },
    },
    async (request, reply) => {
      await requireAdmin(request);
      const agreement = await publishAgreement(app.db, request.body);
      request.log.info({ version: agreement.version }, "agreement version published");
      return reply.status(201).send({ agreement });
    },
  );
}
