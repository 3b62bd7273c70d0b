import {
  ADMIN_USER_MESSAGES,
  ERROR_CODES,
  type TUserProfile,
  ZAdminCreditAdjustmentRequest,
  ZAdminCreditAdjustmentResponse,
  ZAdminReasonRequest,
  ZAdminRevokeSignInsResponse,
  ZAdminSetDisabledRequest,
  ZAdminSetTierRequest,
  ZAdminUserActionResponse,
  ZAdminUserDetail,
  ZAdminUsersQuery,
  ZAdminUsersResponse,
  ZLedgerPage,
  ZLedgerQuery,
  ZUserResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { authDeps } from "../auth/auth-deps";
import { creditsDeps } from "../credits/credits-deps";
import { listLedger } from "../credits/list-ledger";
import { findUserById } from "../users/find-user";
import { listUsers } from "../users/list-users";
import { adjustUserCredits } from "./adjust-user-credits";
import { actorOf } from "./admin-actor";
import { getUserDetail } from "./get-user-detail";
import { markUserVerified } from "./mark-user-verified";
import type { AdminActor } from "./record-admin-action";
import { revokeUserSignIns } from "./revoke-user-sign-ins";
import { sendAccountEmail } from "./send-account-email";
import { setUserDisabled } from "./set-user-disabled";
import { setUserTier } from "./set-user-tier";

const tags = ["admin"];

const ZUserParams = z.object({
  id: z.string().refine(isUuid, { error: "Give a user id." }),
});

function userNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "This user does not exist.");
}

export interface UserRoutesOptions {
  /**
   * Erases an account as its holder's own deletion does (the export module's), with the
   * admin and the reason in its audit entry. Passed in at registration: the export module
   * already writes admin audit entries, so importing it here would be a loop.
   */
  eraseAccount(user: TUserProfile, actor: AdminActor, reason: string): Promise<void>;
}

/**
 * Users, one at a time or a page at a time, and what an admin does to one: credits, tier,
 * disabling, sign-ins, emails, verification, deletion; each change audited.
 */
export async function userRoutes(app: FastifyInstance, options: UserRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = authDeps(app);
  const adminDeps = { db: app.db, realtime: app.realtime };

  r.get(
    "/api/admin/users",
    {
      schema: {
        tags,
        summary: "Users a page at a time: searched by email or name, newest, oldest or by email",
        querystring: ZAdminUsersQuery,
        response: { 200: ZAdminUsersResponse },
      },
    },
    async (request) => listUsers(app.db, request.query),
  );

  r.get(
    "/api/admin/users/:id",
    {
      schema: {
        tags,
        summary: "One user: profile, tier, balance, newest ledger rows, sessions count, sign-ins",
        params: ZUserParams,
        response: { 200: ZAdminUserDetail },
      },
    },
    async (request) => {
      const detail = await getUserDetail(app.db, request.params.id);
      if (!detail) throw userNotFound();
      return detail;
    },
  );

  r.get(
    "/api/admin/users/:id/ledger",
    {
      schema: {
        tags,
        summary: "One user's credit ledger, newest first, a page at a time",
        params: ZUserParams,
        querystring: ZLedgerQuery,
        response: { 200: ZLedgerPage },
      },
    },
    async (request) => {
      if (!(await findUserById(app.db, request.params.id))) throw userNotFound();
      return listLedger(app.db, request.params.id, request.query);
    },
  );

  r.post(
    "/api/admin/users/:id/credits",
    {
      schema: {
        tags,
        summary:
          "Grant (positive) or deduct (negative) credits with a reason: a ledger row, audited",
        params: ZUserParams,
        body: ZAdminCreditAdjustmentRequest,
        response: { 200: ZAdminCreditAdjustmentResponse },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      if (!(await findUserById(app.db, request.params.id))) throw userNotFound();
      return adjustUserCredits(creditsDeps(app), actor, {
        userId: request.params.id,
        credits: request.body.delta,
        reason: request.body.reason,
        idempotencyKey: request.body.idempotencyKey,
      });
    },
  );

  r.put(
    "/api/admin/users/:id/tier",
    {
      schema: {
        tags,
        summary: "Set a user's tier without a payment (support, trials, tests), audited",
        params: ZUserParams,
        body: ZAdminSetTierRequest,
        response: { 200: ZUserResponse },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      return { user: await setUserTier(app.db, actor, request.params.id, request.body.tier) };
    },
  );

  r.put(
    "/api/admin/users/:id/disabled",
    {
      schema: {
        tags,
        summary: "Disable an account (its sign-ins and sockets end, no new sign-in) or enable it",
        params: ZUserParams,
        body: ZAdminSetDisabledRequest,
        response: { 200: ZAdminUserDetail },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      if (request.body.disabled && request.params.id === actor.id) {
        throw new AppError(ERROR_CODES.conflict, 409, "You cannot disable your own account.");
      }
      const changed = await setUserDisabled(adminDeps, actor, {
        userId: request.params.id,
        disabled: request.body.disabled,
        reason: request.body.reason,
      });
      const detail = changed ? await getUserDetail(app.db, request.params.id) : null;
      if (!detail) throw userNotFound();
      return detail;
    },
  );

  r.post(
    "/api/admin/users/:id/revoke-sign-ins",
    {
      schema: {
        tags,
        summary: "End every sign-in of the user and close their sockets; the account stays usable",
        params: ZUserParams,
        response: { 200: ZAdminRevokeSignInsResponse },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      if (!(await findUserById(app.db, request.params.id))) throw userNotFound();
      return { revoked: await revokeUserSignIns(adminDeps, actor, request.params.id) };
    },
  );

  /** The user the route names, or 404. */
  async function targetUser(id: string): Promise<TUserProfile> {
    const user = await findUserById(app.db, id);
    if (!user) throw userNotFound();
    return user;
  }

  r.post(
    "/api/admin/users/:id/verification-email",
    {
      schema: {
        tags,
        summary: "Send the user a new email verification link (409 when already verified), audited",
        params: ZUserParams,
        response: { 200: ZAdminUserActionResponse },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const user = await targetUser(request.params.id);
      const message = await sendAccountEmail(deps, actor, user, "verification");
      return { success: true as const, message };
    },
  );

  r.post(
    "/api/admin/users/:id/verify-email",
    {
      schema: {
        tags,
        summary:
          "Mark the user's email address verified, with a reason (welcome credits as on their own confirmation), audited",
        params: ZUserParams,
        body: ZAdminReasonRequest,
        response: { 200: ZAdminUserActionResponse },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const user = await targetUser(request.params.id);
      const message = await markUserVerified(deps, actor, user, request.body.reason);
      return { success: true as const, message };
    },
  );

  r.post(
    "/api/admin/users/:id/password-reset",
    {
      schema: {
        tags,
        summary: "Send the user a password reset link, as the login screen's, audited",
        params: ZUserParams,
        response: { 200: ZAdminUserActionResponse },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      const user = await targetUser(request.params.id);
      const message = await sendAccountEmail(deps, actor, user, "password_reset");
      return { success: true as const, message };
    },
  );

  r.delete(
    "/api/admin/users/:id",
    {
      schema: {
        tags,
        summary:
          "Delete the account and its data, as the user's own deletion does, with a reason; 409 for your own account or a team's only owner",
        params: ZUserParams,
        body: ZAdminReasonRequest,
        response: { 200: ZAdminUserActionResponse },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      if (request.params.id === actor.id) {
        throw new AppError(ERROR_CODES.conflict, 409, ADMIN_USER_MESSAGES.cannotDeleteSelf);
      }
      const user = await targetUser(request.params.id);
      await options.eraseAccount(user, actor, request.body.reason);
      return { success: true as const, message: ADMIN_USER_MESSAGES.deleted(user.email) };
    },
  );
}
