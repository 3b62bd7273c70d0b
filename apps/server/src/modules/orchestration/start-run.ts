import { randomUUID } from "node:crypto";
import {
  RUN_ERROR_CODES,
  SESSION_ERROR_CODES,
  type TChatRequest,
  type TChatResponse,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";
import { addMessage } from "../sessions/add-message";
import { findOwnedSession } from "../sessions/find-session";
import { listRecentMessages } from "../sessions/list-messages";
import { Budget } from "./budget";
import type { CreditHold } from "./credits-port";
import { chosenRoles } from "./plan-run";
import { HISTORY_MESSAGES, messagesFor, PLAN_MAX_OUTPUT_TOKENS, planSystem } from "./prompts";
import type { EngineDeps, RunContext } from "./run-context";
import type { RunControl } from "./run-control";
import { createRunEventLog, type RunEventLogDeps } from "./run-events";
import { findActiveRun, insertRun, isUniqueViolation } from "./run-store";

function runInProgress(): AppError {
  return new AppError(
    RUN_ERROR_CODES.runInProgress,
    409,
    "A task is already running in this session. Wait for it to finish or stop it first.",
  );
}

/**
 * POST /api/ai/chat: checks the session, holds the planning call's worst case (so a user
 * who cannot afford the first step hears it now, as a 402), stores the message and the run
 * together, and starts the run in the background. The message is stored before any model
 * is called, so whatever happens to the run, it is never lost.
 */
export async function startRun(
  deps: EngineDeps & RunEventLogDeps,
  control: RunControl,
  userId: string,
  request: TChatRequest,
): Promise<TChatResponse> {
  const session = await findOwnedSession(deps.db, userId, request.session_id);
  if (session.status !== "active") {
    throw new AppError(
      SESSION_ERROR_CODES.sessionNotActive,
      409,
      `This session is ${session.status}. Make it active again to send a message.`,
      { status: session.status },
    );
  }
  if (await findActiveRun(deps.db, session.id)) throw runInProgress();

  const runId = randomUUID();
  const messageId = randomUUID();
  const planCallId = randomUUID();
  const history = (await listRecentMessages(deps.db, session.id, HISTORY_MESSAGES)).map((m) => ({
    role: m.role,
    content: m.content,
  }));
  const mode = session.manual_agent_selection ? "manual" : "automatic";
  const userKeys = await deps.loadUserKeys(userId);
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
    budget: new Budget(session.budget_credits, session.spent_credits),
    controller: new AbortController(),
    cancelReason: null,
    stop: null,
    planHold: null,
    totals: { credits: 0, inputTokens: 0, outputTokens: 0 },
    startedAt: performance.now(),
    pending: new Set(),
    rowWrites: Promise.resolve(),
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
  const worstCase = estimate.worstCaseCredits;
  const remaining = ctx.budget.remaining;
  if (remaining !== null && worstCase > remaining + 1e-9) {
    throw new AppError(
      RUN_ERROR_CODES.budgetExceeded,
      402,
      `This session's budget is used up: planning may cost up to ${worstCase} credits and ${Math.max(0, Math.floor(remaining * 100) / 100)} of ${session.budget_credits} are left. Raise the session's budget to continue.`,
      { budget: session.budget_credits, spent: session.spent_credits, required: worstCase },
    );
  }
  const hold: CreditHold | null =
    worstCase > 0
      ? await deps.credits.reserve(userId, worstCase, `run:${runId}:${planCallId}`)
      : null;

  try {
    const message = await deps.db.transaction(async (tx) => {
      const stored = await addMessage(tx, {
        id: messageId,
        sessionId: session.id,
        role: "user",
        content: request.message,
        runId,
      });
      await insertRun(tx, {
        id: runId,
        sessionId: session.id,
        userId,
        messageId,
        mode,
        coordinatorModel: session.coordinator_model,
        instanceId: control.instanceId,
      });
      return stored;
    });
    ctx.message = message;
  } catch (error) {
    if (hold) await deps.credits.release(hold.id).catch(() => undefined);
    if (isUniqueViolation(error)) throw runInProgress();
    throw error;
  }
  ctx.planHold = { callId: planCallId, hold, worstCase };
  control.launch(ctx);
  return { run_id: runId, message_id: messageId };
}
