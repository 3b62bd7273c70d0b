import {
  STEERING_ROUTES,
  type TPlanReview,
  type TRunMessageRequest,
  type TRunMessageResponse,
  type TStartPlanRequest,
  type TStartPlanResponse,
  type TSteerLaneRequest,
  type TSteerLaneResponse,
} from "@cohort/contracts";
import { api } from "../../lib/api/api";

/** The client's paths are under /api already. */
const path = (full: string) => full.replace(/^\/api/, "");
const enc = encodeURIComponent;

export function getPlanReview(sessionId: string, runId: string): Promise<TPlanReview> {
  return api.get<TPlanReview>(path(STEERING_ROUTES.plan(enc(sessionId), enc(runId))));
}

export function startPlan(
  sessionId: string,
  runId: string,
  body: TStartPlanRequest,
): Promise<TStartPlanResponse> {
  return api.post<TStartPlanResponse>(
    path(STEERING_ROUTES.startPlan(enc(sessionId), enc(runId))),
    body,
  );
}

export function steerLane(
  sessionId: string,
  runId: string,
  stepId: string,
  body: TSteerLaneRequest,
): Promise<TSteerLaneResponse> {
  return api.post<TSteerLaneResponse>(
    path(STEERING_ROUTES.steerLane(enc(sessionId), enc(runId), enc(stepId))),
    body,
  );
}

export function sendRunMessage(
  sessionId: string,
  runId: string,
  body: TRunMessageRequest,
): Promise<TRunMessageResponse> {
  return api.post<TRunMessageResponse>(
    path(STEERING_ROUTES.message(enc(sessionId), enc(runId))),
    body,
  );
}
