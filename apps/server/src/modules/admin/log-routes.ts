import {
  ERROR_CODES,
  ZAdminAuditQuery,
  ZAdminAuditResponse,
  ZAnalyticsSummary,
  ZAnalyticsSummaryQuery,
  ZLogEntriesQuery,
  ZLogEntriesResponse,
  ZRequestTrail,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../platform/errors";
import { getRequestTrail } from "../telemetry/get-request-trail";
import { listLogEntries } from "../telemetry/list-log-entries";
import { summarizeAnalytics } from "../telemetry/summarize-analytics";
import { listAuditLog } from "./list-audit-log";

const tags = ["admin"];

/** What was recorded: the admin audit log, client and server logs, a request's trail, analytics. */
export async function logRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

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
