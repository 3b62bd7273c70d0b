import {
  AGENT_ROLE_NAMES,
  ERROR_CODES,
  RUN_STATUS_LABELS,
  STEERING_ERROR_CODES,
  STEERING_MESSAGES,
  STEERING_ROUTES,
  type TRun,
  ZPlanReview,
  ZRunMessageRequest,
  ZRunMessageResponse,
  ZStartPlanRequest,
  ZStartPlanResponse,
  ZSteerLaneRequest,
  ZSteerLaneResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import { findSessionFor } from "../sessions/find-session";
import { applyPlanEdits, planChanged } from "./plan-edits";
import { getPlanReviewOfRun, planReviewKey, planReviewView, startPlanReview } from "./plan-review";
import { runSteeringKey } from "./queued-messages";
import { getRun } from "./run-store";
import { startRun } from "./start-run";

const tags = ["runs"];

function runNotFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "This run does not exist.");
}

/** The run, when it belongs to the session the caller may act in (member+); else 404. */
async function runOf(
  app: FastifyInstance,
  userId: string,
  sessionId: string,
  runId: string,
): Promise<TRun> {
  const session = await findSessionFor(app.db, userId, sessionId, { least: "member" });
  const run = isUuid(runId) ? await getRun(app.db, runId) : null;
  if (!run || run.session_id !== session.id) throw runNotFound();
  return run;
}

function notPlanned(run: TRun): AppError {
  return new AppError(STEERING_ERROR_CODES.notPlanned, 409, STEERING_MESSAGES.notPlanned, {
    status: run.status,
  });
}

/** A stopped run's partial work, as the context of the run "Send now" starts. */
function partialWorkOf(run: TRun): string {
  const parts = run.steps
    .filter((s) => s.kind === "agent" && s.rerun_of === null && s.output.trim() !== "")
    .map((s) => {
      const who = s.role ? AGENT_ROLE_NAMES[s.role] : "Agent";
      const state = s.status === "completed" ? "" : " (stopped before it finished)";
      return `### ${who}, step ${s.step_id ?? "?"}${state}\n${s.output.trim()}`;
    });
  if (parts.length === 0) return "";
  return `I stopped the team's previous run when you sent a new message. Its partial work:\n\n${parts.join("\n\n")}`;
}

/**
 * Steering a run (decision 069): review and start a `planned` run's plan, steer or skip a
 * lane, and send a message while the team works (queued, or "Send now"). Each change is
 * stored, then the instance executing the run is woken (the approvals' waiters, decision
 * 059), wherever it runs.
 */
export async function steeringRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps, control } = app.orchestration;
  const steering = deps.steering;
  if (!steering) return;

  r.get(
    STEERING_ROUTES.plan(":id", ":runId"),
    {
      schema: {
        tags,
        summary:
          "The plan review a run waits on in `planned` (decision 069): the coordinator's plan, or the plan as started, and when the wait expires",
        params: z.object({ id: z.string(), runId: z.string() }),
        response: { 200: ZPlanReview },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const run = await runOf(app, user.id, request.params.id, request.params.runId);
      const review = await getPlanReviewOfRun(app.db, run.id);
      if (!review) throw new AppError(ERROR_CODES.notFound, 404, "This run has no plan review.");
      reply.header("cache-control", "no-store");
      return planReviewView(review, run.status);
    },
  );

  r.post(
    STEERING_ROUTES.startPlan(":id", ":runId"),
    {
      schema: {
        tags,
        summary:
          "Start a run waiting in `planned`, with its plan as edited (steps reordered, removed or added; a step's role, model, temperature, instructions or tools changed); 400 for a plan that cannot run, 409 when the run is not waiting",
        params: z.object({ id: z.string(), runId: z.string() }),
        body: ZStartPlanRequest,
        response: { 200: ZStartPlanResponse },
      },
    },
    async (request) => {
      const principal = await requireAgreement(request);
      const { user } = principal;
      const run = await runOf(app, user.id, request.params.id, request.params.runId);
      const review = await getPlanReviewOfRun(app.db, run.id);
      if (review?.status !== "pending" || run.status !== "planned") {
        throw notPlanned(run);
      }
      const edits = request.body.steps;
      const plan = edits
        ? applyPlanEdits(deps.models, await deps.loadUserKeys(principal), review.plan, edits)
        : review.plan;
      const started = await startPlanReview(app.db, review.id, {
        plan,
        edited: planChanged(review.plan, plan),
        userId: user.id,
        userName: user.displayName,
      });
      if (!started) throw notPlanned(run);
      steering.waiters.notify(planReviewKey(review.id));
      return { run_id: run.id, plan };
    },
  );

  r.post(
    STEERING_ROUTES.steerLane(":id", ":runId", ":stepId"),
    {
      schema: {
        tags,
        summary:
          "Steer a lane with a note (its call stops, what it wrote is kept, it goes on with the note) or skip it (the run goes on without it); 409 when the lane has finished",
        params: z.object({ id: z.string(), runId: z.string(), stepId: z.string() }),
        body: ZSteerLaneRequest,
        response: { 202: ZSteerLaneResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const run = await runOf(app, user.id, request.params.id, request.params.runId);
      const { action, note } = ZSteerLaneRequest.parse(request.body);
      if (action === "steer" && note === "") {
        throw new AppError(ERROR_CODES.validationFailed, 400, "A steering note is required.", {
          fields: { note: "is required" },
        });
      }
      const step = run.plan?.steps.find(
        (s) => s.id === request.params.stepId && s.phase === "agent",
      );
      if (!step) throw new AppError(ERROR_CODES.notFound, 404, "This run has no such lane.");
      const ended = run.steps.some(
        (s) =>
          s.kind === "agent" &&
          s.step_id === step.id &&
          s.rerun_of === null &&
          (s.status === "completed" || s.status === "failed"),
      );
      if (run.status !== "running" || ended) {
        throw new AppError(
          STEERING_ERROR_CODES.laneNotRunning,
          409,
          STEERING_MESSAGES.laneNotRunning,
          {
            status: run.status,
          },
        );
      }
      const { rows } = await app.db.query<{ id: string }>(
        `INSERT INTO run_interventions (run_id, kind, step_id, note, created_by, created_by_name)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [run.id, action, step.id, note, user.id, user.displayName],
      );
      steering.waiters.notify(runSteeringKey(run.id));
      return reply.status(202).send({ id: (rows[0] as { id: string }).id, accepted: true });
    },
  );

  r.post(
    STEERING_ROUTES.message(":id", ":runId"),
    {
      schema: {
        tags,
        summary:
          "A message while the team works: queued for the coordinator's next step boundary (mode queue), or it stops the run and starts a new one with the partial work as context (mode now)",
        params: z.object({ id: z.string(), runId: z.string() }),
        body: ZRunMessageRequest,
        response: { 200: ZRunMessageResponse, 202: ZRunMessageResponse },
      },
    },
    async (request, reply) => {
      const principal = await requireAgreement(request);
      const { user } = principal;
      const run = await runOf(app, user.id, request.params.id, request.params.runId);
      const { message, mode } = ZRunMessageRequest.parse(request.body);
      if (mode === "now") {
        const stopped = await control.cancel({
          id: run.id,
          sessionId: run.session_id,
          userId: user.id,
          status: run.status,
        });
        const after = (await getRun(app.db, run.id)) ?? run;
        const started = await startRun(
          deps,
          control,
          principal,
          { session_id: run.session_id, message },
          partialWorkOf(after),
        );
        app.log.info({ runId: run.id, stopped, next: started.run_id }, "send now");
        return reply.status(202).send({ mode: "now", ...started });
      }
      const open = ["queued", "planning", "planned", "running", "reviewing"];
      if (!open.includes(run.status)) {
        throw new AppError(
          STEERING_ERROR_CODES.runNotActive,
          409,
          run.status === "synthesizing"
            ? "The team is writing the answer now: send your message after it, or use Send now."
            : `This run is ${RUN_STATUS_LABELS[run.status].toLowerCase()}: send a new message instead.`,
          { status: run.status },
        );
      }
      const { rows } = await app.db.query<{ id: string }>(
        `INSERT INTO run_interventions (run_id, kind, note, created_by, created_by_name)
         VALUES ($1, 'message', $2, $3, $4) RETURNING id`,
        [run.id, message, user.id, user.displayName],
      );
      steering.waiters.notify(runSteeringKey(run.id));
      return reply.status(200).send({
        mode: "queue",
        queued_id: (rows[0] as { id: string }).id,
        message: STEERING_MESSAGES.queued,
      });
    },
  );
}
