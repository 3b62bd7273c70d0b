import {
  ERROR_CODES,
  ZAcceptAgreementRequest,
  ZAcceptAgreementResponse,
  ZAgreementHistory,
  ZAgreementResponse,
  ZAgreementStatus,
  ZDeclineAgreementRequest,
  ZDeclineAgreementResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { acceptAgreement } from "./accept-agreement";
import { declineAgreement } from "./decline-agreement";
import { getAgreementStatus } from "./get-agreement-status";
import { getCurrentAgreement } from "./get-current-agreement";
import { listAcceptances } from "./list-acceptances";

const tags = ["agreements"];

export async function agreementRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/api/agreements/current",
    {
      schema: {
        tags,
        summary: "The current user agreement (public); 404 when none is published",
        response: { 200: ZAgreementResponse },
      },
    },
    async () => {
      const agreement = await getCurrentAgreement(app.db);
      if (!agreement) {
        throw new AppError(ERROR_CODES.notFound, 404, "No user agreement has been published.");
      }
      return { agreement };
    },
  );

  r.get(
    "/api/agreements/check-required",
    {
      schema: {
        tags,
        summary: "Whether the signed-in user must accept the current agreement",
        response: { 200: ZAgreementStatus },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return getAgreementStatus(app.db, user.id);
    },
  );

  r.post(
    "/api/agreements/accept",
    {
      schema: {
        tags,
        summary: "Accept the current agreement version",
        body: ZAcceptAgreementRequest,
        response: { 200: ZAcceptAgreementResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      const acceptance = await acceptAgreement(app.db, {
        userId: user.id,
        agreementId: request.body.agreementId,
        source: request.body.source,
        ip: request.ip,
        currentOnly: true,
      });
      return { success: true as const, acceptance };
    },
  );

  r.post(
    "/api/agreements/decline",
    {
      schema: {
        tags,
        summary: "Decline the current agreement; 403 unless that version allows declining",
        body: ZDeclineAgreementRequest,
        response: { 200: ZDeclineAgreementResponse },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      await declineAgreement(app.db, {
        userId: user.id,
        agreementId: request.body.agreementId,
        source: request.body.source,
        ip: request.ip,
      });
      return {
        success: true as const,
        message: "You declined this version of the agreement. You can accept it later at any time.",
      };
    },
  );

  r.get(
    "/api/agreements/history",
    {
      schema: {
        tags,
        summary: "The signed-in user's agreement acceptances, newest first",
        response: { 200: ZAgreementHistory },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return { acceptances: await listAcceptances(app.db, user.id) };
    },
  );
}
