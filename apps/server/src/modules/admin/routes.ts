import {
  ADMIN_USER_MESSAGES,
  ERROR_CODES,
  type TUserProfile,
  ZAdminAgreementsResponse,
  ZAdminAuditQuery,
  ZAdminAuditResponse,
  ZAdminCreditAdjustmentRequest,
  ZAdminCreditAdjustmentResponse,
  ZAdminModelOverrideRequest,
  ZAdminModelParams,
  ZAdminModelsResponse,
  ZAdminOverview,
  ZAdminOverviewQuery,
  ZAdminPendingQuery,
  ZAdminPendingResponse,
  ZAdminReasonRequest,
  ZAdminRevokeSignInsResponse,
  ZAdminSetDisabledRequest,
  ZAdminSetTierRequest,
  ZAdminUserActionResponse,
  ZAdminUserDetail,
  ZAdminUsersQuery,
  ZAdminUsersResponse,
  ZAdminWorkspacesQuery,
  ZAdminWorkspacesResponse,
  ZAgreementResponse,
  ZAnalyticsSummary,
  ZAnalyticsSummaryQuery,
  ZAuthResponse,
  ZLedgerPage,
  ZLedgerQuery,
  ZLogEntriesQuery,
  ZLogEntriesResponse,
  ZLoginRequest,
  ZOutboxResponse,
  ZPublishAgreementRequest,
  ZRequestTrail,
  ZUserResponse,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { isUuid } from "../../db/uuid";
import { type Principal, requireAdmin } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { listOutbox } from "../../platform/mail";
import { countAcceptances } from "../agreements/count-acceptances";
import { listUndecidedUsers } from "../agreements/list-undecided-users";
import { publishAgreement } from "../agreements/publish-agreement";
import { authDeps } from "../auth/auth-deps";
import { logIn } from "../auth/log-in";
import { loginMeta, replySignedIn } from "../auth/reply-signed-in";
import { creditsDeps } from "../credits/credits-deps";
import { listLedger } from "../credits/list-ledger";
import { getRequestTrail } from "../telemetry/get-request-trail";
import { listLogEntries } from "../telemetry/list-log-entries";
import { summarizeAnalytics } from "../telemetry/summarize-analytics";
import { countUsers } from "../users/count-users";
import { findAdminUsers } from "../users/find-admin-users";
import { findUserById } from "../users/find-user";
import { listUsers } from "../users/list-users";
import { adjustUserCredits } from "./adjust-user-credits";
import { getAdminOverview } from "./get-admin-overview";
import { getUserDetail } from "./get-user-detail";
import { listAdminModels } from "./list-admin-models";
import { listAdminWorkspaces } from "./list-admin-workspaces";
import { listAuditLog } from "./list-audit-log";
import { markUserVerified } from "./mark-user-verified";
import { overrideModel } from "./override-model";
import { type AdminActor, recordAdminAction } from "./record-admin-action";
import { revokeUserSignIns } from "./revoke-user-sign-ins";
import { sendAccountEmail } from "./send-account-email";
import { setUserDisabled } from "./set-user-disabled";
import { setUserTier } from "./set-user-tier";

const tags = ["admin"];
const LOGIN_URL = "/api/admin/login";

const ZUserParams = z.object({
  id: z.string().refine(isUuid, { error: "Give a user id." }),
});

function userNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "This user does not exist.");
}

/** The admin this request acts as; the guard hook has already let only admins through. */
async function actorOf(request: FastifyRequest): Promise<AdminActor> {
  const { user }: Principal = await requireAdmin(request);
  return { id: user.id, email: user.email, requestId: request.id };
}

export interface AdminRoutesOptions {
  /**
   * Erases an account as its holder's own deletion does (the export module's), with the
   * admin and the reason in its audit entry. Passed in at registration: the export module
   * already writes admin audit entries, so importing it here would be a loop.
   */
  eraseAccount(user: TUserProfile, actor: AdminActor, reason: string): Promise<void>;
}

export async function adminRoutes(app: FastifyInstance, options: AdminRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = authDeps(app);
  const adminDeps = { db: app.db, realtime: app.realtime };

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

  r.get(
    "/api/admin/agreements",
    {
      schema: {
        tags,
        summary: "Every published agreement version, newest first, with acceptance counts",
        response: { 200: ZAdminAgreementsResponse },
      },
    },
    async () => {
      const [versions, users] = await Promise.all([
        countAcceptances(app.db),
        countUsers(app.db, new Date()),
      ]);
      return { versions, users_total: users.users };
    },
  );

  r.get(
    "/api/admin/agreements/pending",
    {
      schema: {
        tags,
        summary: "Users who have not yet accepted (or declined) the current version",
        querystring: ZAdminPendingQuery,
        response: { 200: ZAdminPendingResponse },
      },
    },
    async (request) => {
      const undecided = await listUndecidedUsers(app.db, request.query);
      if (!undecided) {
        throw new AppError(ERROR_CODES.notFound, 404, "No agreement has been published yet.");
      }
      return {
        version: undecided.version,
        users: await findAdminUsers(app.db, undecided.userIds),
        total: undecided.total,
        page: request.query.page,
        pageSize: request.query.pageSize,
      };
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
      const actor = await actorOf(request);
      const agreement = await app.db.transaction(async (tx) => {
        const published = await publishAgreement(tx, request.body);
        await recordAdminAction(tx, actor, {
          action: "agreement.publish",
          targetType: "agreement",
          targetId: published.id,
          before: null,
          after: {
            version: published.version,
            effectiveDate: published.effectiveDate,
            allowDecline: published.allowDecline,
          },
        });
        return published;
      });
      // Product calls must ask for the new version on their very next request.
      await app.agreementChecks.published();
      request.log.info({ version: agreement.version }, "agreement version published");
      return reply.status(201).send({ agreement });
    },
  );

  r.get(
    "/api/admin/models",
    {
      schema: {
        tags,
        summary: "Every catalogue model with its on/off state and price override; provider health",
        response: { 200: ZAdminModelsResponse },
      },
    },
    async () => listAdminModels(app.models, app.modelOverrides),
  );

  r.put(
    "/api/admin/models/:id",
    {
      schema: {
        tags,
        summary:
          "Switch a model on or off and set (or clear) its price; audited, no restart needed",
        params: ZAdminModelParams,
        body: ZAdminModelOverrideRequest,
        response: { 200: ZAdminModelsResponse },
      },
    },
    async (request) => {
      const actor = await actorOf(request);
      await overrideModel(
        { db: app.db, overrides: app.modelOverrides },
        actor,
        request.params.id,
        request.body,
      );
      return listAdminModels(app.models, app.modelOverrides);
    },
  );

  r.get(
    "/api/admin/audit",
    {
      schema: {
        tags,
        summary: "The audit log of admin actions (who, what, before/after, when), append-only",
        querystring: ZAdminAuditQuery,
        response: { 200: ZAdminAuditResponse },
      },
    },
    async (request) => listAuditLog(app.db, request.query),
  );

  r.get(
    "/api/admin/logs",
    {
      schema: {
        tags,
        summary:
          "Client and server log entries, newest first: by level, user, session, request id, time",
        querystring: ZLogEntriesQuery,
        response: { 200: ZLogEntriesResponse },
      },
    },
    async (request) => listLogEntries(app.db, request.query),
  );

  r.get(
    "/api/admin/logs/requests/:requestId",
    {
      schema: {
        tags,
        summary: "One request's whole trail: client entries and server lines sharing its id",
        params: z.object({
          // The server's own request-id rule (app.ts): anything else was never stored.
          requestId: z.string().regex(/^[\w.:-]{1,128}$/, { error: "Give a request id." }),
        }),
        response: { 200: ZRequestTrail },
      },
    },
    async (request) => {
      const trail = await getRequestTrail(app.db, request.params.requestId);
      if (trail.entries.length === 0) {
        throw new AppError(ERROR_CODES.notFound, 404, "Nothing was kept for this request id.");
      }
      return trail;
    },
  );

  r.get(
    "/api/admin/analytics",
    {
      schema: {
        tags,
        summary:
          "Top pages, referrers, UTM sources, the sign-up funnel and web vitals p75 per route",
        querystring: ZAnalyticsSummaryQuery,
        response: { 200: ZAnalyticsSummary },
      },
    },
    async (request) => summarizeAnalytics(app.db, request.query),
  );
}
