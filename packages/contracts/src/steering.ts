import { z } from "zod";
import { MAX_PLAN_STEPS, ZAgentRoleId } from "./models";
import { CHAT_MESSAGE_MAX, ZRunPlanView, ZRunStatus } from "./runs";
import { AGENT_INSTRUCTIONS_MAX } from "./sessions";

/**
 * Steering a run (decision 069): review and edit the plan before it starts, steer or skip a
 * lane while it streams, and send a message while the team works.
 */

/** The exact texts the screen shows. */
export const STEERING_MESSAGES = {
  queued: "Received — the team will take it into account",
  reviewPlan: "Review the plan first",
  planReady: "The plan is ready. Change it if you like, then start.",
  start: "Start",
  steer: "Steer",
  skip: "Skip",
  sendNow: "Send now",
  steerPlaceholder: "e.g. focus on the data model, skip the UI",
  skipped: (role: string) => `Skipped: the run goes on without the ${role}.`,
  expired: (minutes: number) =>
    `Nobody started the plan within ${minutes} minute${minutes === 1 ? "" : "s"}, so the run stopped. Only the planning was charged.`,
  notPlanned: "This run is not waiting for its plan to be started.",
  laneNotRunning: "This lane is not running any more.",
} as const;

export const STEERING_ERROR_CODES = {
  planReviewExpired: "plan_review_expired",
  notPlanned: "run_not_planned",
  laneNotRunning: "lane_not_running",
  invalidPlan: "invalid_plan",
  runNotActive: "run_not_active",
} as const;

/** The longest steering note. */
export const STEER_NOTE_MAX = 1000;

const ZStepId = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_-]+$/, "may use letters, digits, - and _ only");

/** One step of an edited plan, in the order it should be shown and run. */
export const ZPlanEditStep = z.object({
  id: ZStepId,
  role: ZAgentRoleId,
  task: z.string().trim().min(1, "is required").max(2000),
  depends_on: z.array(z.string()).max(MAX_PLAN_STEPS).default([]),
  model: z.string().trim().min(1).max(100),
  temperature: z.number().min(0).max(2).nullable().optional(),
  instructions: z.string().trim().max(AGENT_INSTRUCTIONS_MAX).optional(),
  /** Tool names this step may use (a subset of what the session lets its role use). */
  tools: z.array(z.string().trim().min(1).max(80)).max(50).optional(),
});
export type TPlanEditStep = z.input<typeof ZPlanEditStep>;

/**
 * POST /api/sessions/{id}/runs/{runId}/plan/start: starts a run waiting in `planned`, with
 * the plan as edited (absent `steps`: as the coordinator made it).
 */
export const ZStartPlanRequest = z.object({
  steps: z.array(ZPlanEditStep).min(1).max(MAX_PLAN_STEPS).optional(),
});
export type TStartPlanRequest = z.input<typeof ZStartPlanRequest>;

export const ZStartPlanResponse = z.object({ run_id: z.string(), plan: ZRunPlanView });
export type TStartPlanResponse = z.infer<typeof ZStartPlanResponse>;

/** GET /api/sessions/{id}/runs/{runId}/plan: the review a `planned` run waits on. */
export const ZPlanReview = z.object({
  id: z.string(),
  run_id: z.string(),
  status: z.enum(["pending", "started", "expired", "cancelled"]),
  run_status: ZRunStatus,
  plan: ZRunPlanView,
  created_at: z.string(),
  expires_at: z.string(),
});
export type TPlanReview = z.infer<typeof ZPlanReview>;

/** POST /api/sessions/{id}/runs/{runId}/lanes/{stepId}/steer */
export const ZSteerLaneRequest = z.object({
  action: z.enum(["steer", "skip"]),
  note: z.string().trim().max(STEER_NOTE_MAX).default(""),
});
export type TSteerLaneRequest = z.input<typeof ZSteerLaneRequest>;

export const ZSteerLaneResponse = z.object({ id: z.string(), accepted: z.literal(true) });
export type TSteerLaneResponse = z.infer<typeof ZSteerLaneResponse>;

/**
 * POST /api/sessions/{id}/runs/{runId}/messages: a message while the team works. `queue`:
 * taken into account at the next step boundary; `now`: stops the run and starts a new one
 * with the stopped run's partial work as context.
 */
export const ZRunMessageRequest = z.object({
  message: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(CHAT_MESSAGE_MAX, `must be at most ${CHAT_MESSAGE_MAX} characters`),
  mode: z.enum(["queue", "now"]).default("queue"),
});
export type TRunMessageRequest = z.input<typeof ZRunMessageRequest>;

export const ZRunMessageResponse = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("queue"), queued_id: z.string(), message: z.string() }),
  z.object({ mode: z.literal("now"), run_id: z.string(), message_id: z.string() }),
]);
export type TRunMessageResponse = z.infer<typeof ZRunMessageResponse>;

export const STEERING_ROUTES = {
  plan: (sessionId: string, runId: string) => `/api/sessions/${sessionId}/runs/${runId}/plan`,
  startPlan: (sessionId: string, runId: string) =>
    `/api/sessions/${sessionId}/runs/${runId}/plan/start`,
  steerLane: (sessionId: string, runId: string, stepId: string) =>
    `/api/sessions/${sessionId}/runs/${runId}/lanes/${stepId}/steer`,
  message: (sessionId: string, runId: string) =>
    `/api/sessions/${sessionId}/runs/${runId}/messages`,
} as const;
