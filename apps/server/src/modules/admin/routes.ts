import {
  ERROR_CODES,
  ZAdminCreditAdjustmentRequest,
  ZAdminCreditAdjustmentResponse,
  ZAdminSetTierRequest,
  ZAdminUsersQuery,
  ZAdminUsersResponse,
  ZAgreementResponse,
  ZAuthResponse,
  ZLoginRequest,
  ZOutboxResponse,
  ZPublishAgreementRequest,
  ZUserResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { isUuid } from "../../db/uuid";
import { requireAdmin } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { listOutbox } from "../../platform/mail";
import { publishAgreement } from "../agreements/publish-agreement";
import { authDeps } from "../auth/auth-deps";
import { logIn } from "../auth/log-in";
import { loginMeta, replySignedIn } from "../auth/reply-signed-in";
import { grantTier } from "../billing/grant-tier";
import { adjustCredits } from "../credits/adjust-credits";
import { creditsDeps } from "../credits/credits-deps";
import { findUserById } from "../users/find-user";
import { listUsers } from "../users/list-users";

const tags = ["admin"];

const ZUserParams = z.object({
  id: z.string().refine(isUuid, { error: "Give a user id." }),
});

function userNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "This user does not exist.");
}

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
      const signedIn = await logIn(deps, request.body, loginMeta(app, request, request.body.email), { role: "admin" });
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
    "/api/admin/users/:id/credits",
    {
      schema: {
        tags,
        summary: "Grant (positive) or deduct (negative) credits; ledger reason admin_adjustment",
        params: ZUserParams,
        body: ZAdminCreditAdjustmentRequest,
        response: { 200: ZAdminCreditAdjustmentResponse },
      },
    },
    async (request) => {
      const { user: admin } = await requireAdmin(request);
      if (!(await findUserById(app.db, request.params.id))) throw userNotFound();
      const result = await adjustCredits(creditsDeps(app), {
        userId: request.params.id,
        credits: request.body.delta,
        note: request.body.reason,
        idempotencyKey: request.body.idempotencyKey,
      });
      request.log.info(
        {
          userId: request.params.id,
          delta: request.body.delta,
          admin: admin.id,
          applied: result.applied,
        },
        "admin credit adjustment",
      );
      return result;
    },
  );

  r.put(
    "/api/admin/users/:id/tier",
    {
      schema: {
        tags,
        summary: "Set a user's tier without a payment (support, trials, tests)",
        params: ZUserParams,
        body: ZAdminSetTierRequest,
        response: { 200: ZUserResponse },
      },
    },
    async (request) => {
      const { user: admin } = await requireAdmin(request);
      const user = await grantTier(app.db, request.params.id, request.body.tier).catch(
        (error: unknown) => {
          throw error instanceof AppError ? error : userNotFound();
        },
      );
      request.log.info(
        { userId: user.id, tier: user.subscription_tier, admin: admin.id },
        "admin tier grant",
      );
      return { user };
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
      // Product calls must ask for the new version on their very next request.
      await app.agreementChecks.published();
      request.log.info({ version: agreement.version }, "agreement version published");
      return reply.status(201).send({ agreement });
    },
  );
}
