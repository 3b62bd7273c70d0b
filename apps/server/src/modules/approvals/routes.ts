import {
  APPROVAL_ROUTES,
  ZDecideApprovalRequest,
  ZToolApprovalResponse,
  ZToolApprovalsResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ApprovalWaiters } from "../../platform/approval-waiters";
import { requireAgreement } from "../agreements/require-agreement";
import { findActiveRun } from "../orchestration/run-store";
import { findSessionFor } from "../sessions/find-session";
import { toApproval } from "./approval-row";
import { listPendingApprovals } from "./approval-store";
import { decideApproval } from "./decide-approval";
import { listAlwaysAllowed } from "./session-tool-rules";

const tags = ["approvals"];

/**
 * A session's tool-call approvals (decision 059): its members read what waits (a reloaded
 * page finds its cards here as well as in the replayed events); anyone who may run in the
 * workspace (member+) decides; anyone else gets 404.
 */
export async function approvalRoutes(app: FastifyInstance, options: { waiters: ApprovalWaiters }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    APPROVAL_ROUTES.list(":id"),
    {
      schema: {
        tags,
        summary:
          "The session's tool calls waiting for approval in its active run, oldest first, and the tools always allowed in it",
        params: z.object({ id: z.string() }),
        response: { 200: ZToolApprovalsResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const session = await findSessionFor(app.db, user.id, request.params.id);
      const [run, always_allowed] = await Promise.all([
        findActiveRun(app.db, session.id),
        listAlwaysAllowed(app.db, session.id),
      ]);
      const pending = run ? await listPendingApprovals(app.db, session.id, run.id) : [];
      reply.header("cache-control", "no-store");
      return { approvals: pending.map(toApproval), always_allowed };
    },
  );

  r.post(
    APPROVAL_ROUTES.decide(":id", ":approvalId"),
    {
      schema: {
        tags,
        summary:
          "Approve (optionally with edited arguments, optionally always for this tool in this session) or deny a tool call waiting for approval; 409 once decided or expired",
        params: z.object({ id: z.string(), approvalId: z.string() }),
        body: ZDecideApprovalRequest,
        response: { 200: ZToolApprovalResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      try {
        const approval = await decideApproval(
          app.db,
          { id: user.id, name: user.displayName },
          request.params.id,
          request.params.approvalId,
          request.body,
        );
        return { approval };
      } finally {
        // Decided, or closed as expired: the lane waiting for it looks now, wherever it is.
        options.waiters.notify(request.params.approvalId);
      }
    },
  );
}
