import { randomUUID } from "node:crypto";
import {
  hundredthsOf,
  NO_CREDITS,
  RUN_ERROR_CODES,
  SESSION_ERROR_CODES,
  type TChatRequest,
  type TChatResponse,
} from "@cohort/contracts";
import { isUuid } from "../../db/uuid";
import type { Principal } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import { storedMessage } from "../sessions/add-message";
import { findOwnedSession } from "../sessions/find-session";
import { listRecentMessages } from "../sessions/list-messages";
import { Budget } from "./budget";
import {
  type RunStart,
  reserveAndStartRun,
  type StartedRun,
  startRunAlone,
} from "./call-statements";
import { type Reserved, reserveCall } from "./hold-credits";
import { chosenRoles } from "./plan-run";
import { HISTORY_MESSAGES, messagesFor, PLAN_MAX_OUTPUT_TOKENS, planSystem } from "./prompts";
import type { EngineDeps, RunContext } from "./run-context";
import type { RunControl } from "./run-control";
import { createRunEventLog, type RunEventLogDeps } from "./run-events";
import { findActiveRun, isUniqueViolation } from "./run-store";

function runInProgress(): AppError {
  return new AppError(
    RUN_ERROR_CODES.runInProgress,
    409,
    "A task is already running in this session. Wait for it to finish or stop it first.",
  );
}

/**
 * POST /api/ai/chat: checks the session, holds the planning call's worst case (so a user
 * who cannot afford the first step hears it now, as a 402) in the same statement that stores
 * the message and the run, and starts the run in the background. The message is stored before any model
 * is called, so whatever happens to the run, it is never lost.
 */
export async function startRun(
  deps: EngineDeps & RunEventLogDeps,
  control: RunControl,
  principal: Principal,
  request: TChatRequest,
): Promise<TChatResponse> {
  const userId = principal.user.id;
  // Independent reads, side by side (one round trip, not four). Until the ownership check
  // passes the others' results are only held, never used or shown; an id that is no uuid
  // is refused by the check before anything is read.
  const sessionId = isUuid(request.session_id) ? request.session_id : null;
  const [session, active, recent, userKeys] = await Promise.all([
    findOwnedSession(deps.db, userId, request.session_id),
    sessionId ? findActiveRun(deps.db, sessionId) : null,
    sessionId ? listRecentMessages(deps.db, sessionId, HISTORY_MESSAGES) : [],
    deps.loadUserKeys(principal),
  ]);
  if (session.status !== "active") {
    throw new AppError(
      SESSION_ERROR_CODES.sessionNotActive,
      409,
      `This session is ${session.status}. Make it active again to send a message.`,
      { status: session.status },
    );
  }
  if (active) throw runInProgress();

  const runId = randomUUID();
  const messageId = randomUUID();
  const planCallId = randomUUID();
  const history = recent.map((m) => ({ role: m.role, content: m.content }));
  const mode = session.manual_agent_selection ? "manual" : "automatic";
  const ctx: RunContext = {
    deps,
    runId,
    sessionId: session.id,
    userId,
    mode,
    coordinatorModel: session.coordinator_model,
    preferences: session.agent_preferences ?? {},
    userKeys,
    message: {
      id: messageId,
      session_id: session.id,
      role: "user",
      content: request.message,
      run_id: runId,
      created_at: new Date().toISOString(),
    },
    history,
    events: createRunEventLog(deps, session.id, runId),
    budget: new Budget(
      session.budget_credits === null ? null : hundredthsOf(session.budget_credits),
      hundredthsOf(session.spent_credits),
    ),
    status: "queued",
    controller: new AbortController(),
    planHold: null,
    totals: { credits: NO_CREDITS, inputTokens: 0, outputTokens: 0 },
    criticScore: null,
    startedAt: performance.now(),
    pending: new Set(),
  };

  // The first step's worst case: the same estimate the planning call will reserve.
  const system = planSystem(chosenRoles(ctx));
  const estimate = deps.models.estimateCall({
    modelId: session.coordinator_model,
    userKeys,
    system,
    maxOutputTokens: PLAN_MAX_OUTPUT_TOKENS,
    messages: messagesFor(ctx, session.coordinator_model, request.message, {
      system,
      maxOutputTokens: PLAN_MAX_OUTPUT_TOKENS,
      history: true,
    }),
  });
  const start: RunStart = {
    message: {
      id: messageId,
      sessionId: session.id,
      role: "user",
      content: request.message,
      runId,
    },
    run: {
      id: runId,
      sessionId: session.id,
      userId,
      messageId,
      mode,
      coordinatorModel: session.coordinator_model,
      instanceId: control.instanceId,
    },
  };
  // The same check and hold every call goes through, in one statement with the message and
  // the run (all or nothing); here its 402s answer the request.
  let planHold: Reserved<StartedRun>;
  let started: StartedRun;
  try {
    planHold = await reserveCall<StartedRun>(
      ctx,
      planCallId,
      estimate.worstCaseCredits,
      "planning",
      reserveAndStartRun(start),
    );
    started = planHold.written ?? (await startRunAlone(deps.db, start));
  } catch (error) {
    if (isUniqueViolation(error)) throw runInProgress();
    throw error;
  }
  ctx.message = storedMessage(start.message, started.message_created_at);
  // That statement wrote the run's rows, not the planning call's step: its row is written
  // beside its call, as for a call without a hold.
  ctx.planHold = { ...planHold, written: null };
  control.launch(ctx);
  return { run_id: runId, message_id: messageId };
}
