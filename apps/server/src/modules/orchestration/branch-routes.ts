import {
  BRANCH_ROUTES,
  ZChatResponse,
  ZEditMessageRequest,
  ZForkStepRequest,
  ZShowBranchResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAgreement } from "../agreements/require-agreement";
import { editMessage, showBranch } from "./edit-message";
import { forkRun } from "./fork-run";
import { stepTarget, ZStepParams } from "./step-params";

const tags = ["runs"];

/** Branches and forks of a conversation (decision 070). */
export async function branchRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps, control } = app.orchestration;

  r.post(
    BRANCH_ROUTES.edit(":id", ":messageId"),
    {
      schema: {
        tags,
        summary:
          "Edit a sent message in place: a new version of it (a branch of the conversation from there) with its own run; the original and its runs stay as the other branch",
        params: z.object({ id: z.string(), messageId: z.string() }),
        body: ZEditMessageRequest,
        response: { 202: ZChatResponse },
      },
    },
    async (request, reply) => {
      const principal = await requireAgreement(request);
      const { id, messageId } = request.params;
      const started = await editMessage(
        deps,
        control,
        principal,
        { sessionId: id, messageId },
        request.body,
      );
      return reply.status(202).send(started);
    },
  );

  r.post(
    BRANCH_ROUTES.showMessage(":id", ":messageId"),
    {
      schema: {
        tags,
        summary:
          "Show this version of a message (its branch): the conversation on screen, and what later messages see, follow it",
        params: z.object({ id: z.string(), messageId: z.string() }),
        response: { 200: ZShowBranchResponse },
      },
    },
    async (request) => {
      const principal = await requireAgreement(request);
      const { id, messageId } = request.params;
      return showBranch(deps, principal, { sessionId: id, kind: "message", id: messageId });
    },
  );

  r.post(
    BRANCH_ROUTES.showRun(":id", ":runId"),
    {
      schema: {
        tags,
        summary:
          "Show this version of an answer (a regenerated run or a fork): the conversation on screen, and what later messages see, follow it",
        params: z.object({ id: z.string(), runId: z.string() }),
        response: { 200: ZShowBranchResponse },
      },
    },
    async (request) => {
      const principal = await requireAgreement(request);
      const { id, runId } = request.params;
      return showBranch(deps, principal, { sessionId: id, kind: "run", id: runId });
    },
  );

  r.post(
    BRANCH_ROUTES.fork(":id", ":runId", ":stepId"),
    {
      schema: {
        tags,
        summary:
          "Fork an ended run from a completed step: a new version of the answer that keeps the steps before it (not charged again) and runs that step — on another model, with other instructions or tools — and every step depending on it again",
        params: ZStepParams,
        body: ZForkStepRequest,
        response: { 202: ZChatResponse },
      },
    },
    async (request, reply) => {
      const principal = await requireAgreement(request);
      const target = stepTarget(request.params);
      const started = await forkRun(deps, control, principal, target, request.body);
      return reply.status(202).send(started);
    },
  );
}
