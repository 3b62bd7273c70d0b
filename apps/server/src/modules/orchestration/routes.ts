import {
  ERROR_CODES,
  ZCancelRunResponse,
  ZChatRequest,
  ZChatResponse,
  ZRunEventsQuery,
  ZRunEventsResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import { findOwnedSession } from "../sessions/find-session";
import { readRunEvents } from "./run-events";
import { findOwnedRun } from "./run-store";
import { startRun } from "./start-run";

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
      const principal = await requireAgreement(request);
      const started = await startRun(deps, control, principal, request.body);
      return reply.status(202).send(started);
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
      const { runId } = request.params;
      const run = isUuid(runId) ? await findOwnedRun(app.db, user.id, runId) : null;
      if (!run) throw new AppError(ERROR_CODES.notFound, 404, "This run does not exist.");
      return { run_id: run.id, status: await control.cancel(run) };
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
      const session = await findOwnedSession(app.db, user.id, request.params.id);
      reply.header("cache-control", "no-store");
      return readRunEvents(deps, session.id, request.query.after, request.query.limit);
    },
  );
}
