import {
  ERROR_CODES,
  ZAdminAgreementsResponse,
  ZAdminPendingQuery,
  ZAdminPendingResponse,
  ZAgreementResponse,
  ZPublishAgreementRequest,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../platform/errors";
import { countAcceptances } from "../agreements/count-acceptances";
import { listUndecidedUsers } from "../agreements/list-undecided-users";
import { publishAgreement } from "../agreements/publish-agreement";
import { countUsers } from "../users/count-users";
import { findAdminUsers } from "../users/find-admin-users";
import { actorOf } from "./admin-actor";
import { recordAdminAction } from "./record-admin-action";

const tags = ["admin"];

/** Agreement versions: the published ones with acceptance counts, who is undecided, publishing. */
export async function agreementRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
}
