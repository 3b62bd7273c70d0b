import {
  SPENDING_ROUTES,
  ZCancelRunResponse,
  ZChatRequest,
  ZChatResponse,
  ZCostEstimate,
  ZCostEstimateQuery,
  ZRerunStepRequest,
  ZRerunStepResponse,
  ZRunEventsQuery,
  ZRunEventsResponse,
  ZSynthesizeVersionResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireAgreement } from "../agreements/require-agreement";
import { findSessionFor } from "../sessions/find-session";
import { estimateRunCost } from "./estimate-run-cost";
import { findRunFor } from "./find-run-for";
import { rerunStep } from "./rerun-step";
import { readRunEvents } from "./run-events";
import { readBeforeSignIn, regenerateRun, startRun } from "./start-run";
import { stepTarget, ZStepParams } from "./step-params";
import { synthesizeVersion } from "./synthesize-version";

const tags = ["runs"];

export async function orchestrationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps, control } = app.orchestration;

  r.post(
    "/api/ai/chat",
    {
      schema: {
        tags,
        summary:
          "Send a message to a session: stores it and starts a run (plan → agents → review → answer); everything else arrives as run events",
        body: ZChatRequest,
        response: { 202: ZChatResponse },
      },
    },
    async (request, reply) => {
      // The session's reads ride on the sign-in's statement, not after it (decision 087).
      const early = readBeforeSignIn(request, request.body.session_id);
      const principal = await requireAgreement(request);
      const started = await startRun(deps, control, principal, request.body, undefined, early);
      return reply.status(202).send(started);
    },
  );

  r.get(
    SPENDING_ROUTES.estimate(":sessionId"),
    {
      schema: {
        tags,
        summary:
          "What a run about to start in this session will probably cost (a range in credits; free when only simulated models answer), the wallet charged and the tightest limit",
        params: z.object({ sessionId: z.string() }),
        querystring: ZCostEstimateQuery,
        response: { 200: ZCostEstimate },
      },
    },
    async (request, reply) => {
      const principal = await requireAgreement(request);
      reply.header("cache-control", "no-store");
      return estimateRunCost(
        { engine: deps, stats: app.modelCallStats },
        principal,
        request.params.sessionId,
        request.query,
      );
    },
  );

  r.post(
    "/api/ai/chat/:runId/cancel",
    {
      schema: {
        tags,
        summary:
          "Stop a run: aborts its model calls, keeps partial output (marked stopped) and releases unspent credit holds",
        params: z.object({ runId: z.string() }),
        response: { 200: ZCancelRunResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const run = await findRunFor(app.db, user.id, request.params.runId, "member");
      return { run_id: run.id, status: await control.cancel(run) };
    },
  );

  r.post(
    "/api/ai/chat/:runId/regenerate",
    {
      schema: {
        tags,
        summary:
          "A new run of the message an ended run answered (same text, same history); the old run and its answer stay in the session",
        params: z.object({ runId: z.string() }),
        response: { 202: ZChatResponse },
      },
    },
    async (request, reply) => {
      const principal = await requireAgreement(request);
      const started = await regenerateRun(deps, control, principal, request.params.runId);
      return reply.status(202).send(started);
    },
  );

  r.post(
    "/api/sessions/:id/runs/:runId/steps/:stepId/rerun",
    {
      schema: {
        tags,
        summary:
          "Re-run one agent step of an ended run on another model (or temperature), with the same sub-task and inputs; optionally the Critic scores the new version. Both versions stay; the work streams as run events",
        params: ZStepParams,
        body: ZRerunStepRequest,
        response: { 202: ZRerunStepResponse },
      },
    },
    async (request, reply) => {
      const principal = await requireAgreement(request);
      const target = stepTarget(request.params);
      const started = await rerunStep(deps, control, principal, target, request.body);
      return reply.status(202).send(started);
    },
  );

  r.post(
    "/api/sessions/:id/runs/:runId/steps/:stepId/versions/:version/synthesize",
    {
      schema: {
        tags,
        summary:
          "Re-write an ended run's final answer with one re-run version of a step in place of the step's first draft (and the Critic's review of that version, if any). The run's own answer stays; the new one is an answer version; the work streams as run events",
        params: ZStepParams.extend({ version: z.string() }),
        response: { 202: ZSynthesizeVersionResponse },
      },
    },
    async (request, reply) => {
      const principal = await requireAgreement(request);
      const { version } = request.params;
      const target = { ...stepTarget(request.params), version };
      const started = await synthesizeVersion(deps, control, principal, target);
      return reply.status(202).send(started);
    },
  );

  r.get(
    "/api/sessions/:id/events",
    {
      schema: {
        tags,
        summary:
          "The session's stored run events after `after` (seq), in order: the same backlog join-session replays",
        params: z.object({ id: z.string() }),
        querystring: ZRunEventsQuery,
        response: { 200: ZRunEventsResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const session = await findSessionFor(app.db, user.id, request.params.id);
      reply.header("cache-control", "no-store");
      return readRunEvents(deps, session.id, request.query.after, request.query.limit);
    },
  );
}
