import { randomUUID } from "node:crypto";
import {
  ERROR_CODES,
  hundredths,
  NO_CREDITS,
  RUN_ERROR_CODES,
  SESSION_ERROR_CODES,
  type TChatMessage,
  type TChatRequest,
  type TChatResponse,
  type TSession,
} from "@cohort/contracts";
import type { FastifyRequest } from "fastify";
import { isUuid } from "../../db/uuid";
import { currentPrincipalRiding, type Principal, type SignInRider } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import type { UserProviderKeys } from "../models/providers";
import { storedMessage } from "../sessions/add-message";
import {
  type AccessRow,
  findSessionFor,
  type SessionAccess,
  sessionAccessJson,
  sessionAccessOf,
} from "../sessions/find-session";
import type { OwnedSession } from "../sessions/session-row";
import {
  ancestorsOf,
  type BranchTree,
  loadStartTree,
  type StartTree,
  shownEnd,
  startTreeFromJson,
  startTreeJson,
} from "./branch-history";
import {
  type RunStart,
  reserveAndStartRun,
  reserveAndStartRunOf,
  type StartedRun,
  startRunAlone,
} from "./call-statements";
import { minimalRunCost, runCosts } from "./estimate-run-cost";
import { prefetchMaterial } from "./gather-material";
import { type Reserved, reserveCall } from "./hold-credits";
import { firstHold, PLAN_SLICE_TOKENS, priceOf } from "./hold-slices";
import { chosenRoles } from "./plan-run";
import { HISTORY_MESSAGES, messagesFor, PLAN_MAX_OUTPUT_TOKENS, planSystem } from "./prompts";
import { createRunContext, type EngineDeps } from "./run-context";
import type { RunControl } from "./run-control";
import type { RunEventLogDeps } from "./run-events";
import { getRun, insertRun, isUniqueViolation, type RunRef } from "./run-store";
import { prefetchRunTools } from "./tool-loop";

function runInProgress(): AppError {
  return new AppError(
    RUN_ERROR_CODES.runInProgress,
    409,
    "A task is already running in this session. Wait for it to finish or stop it first.",
  );
}

/** What a run's start read in its sign-in's statement (`readBeforeSignIn`). */
export type EarlyReads = Promise<string | null>;

/**
 * POST /api/ai/chat's reads ride on the sign-in's own statement (decisions 084 and 087): the
 * session with the caller's role, its runs and its messages, one JSON text. The head is one
 * round trip before the start statement, not two. Until the sign-in, the agreement and the
 * session's access check pass, what was read is only held, never used or shown: a request
 * that fails them gets the same answer as before, and nothing is written. Undefined (the
 * reads come after the guards, as before) when the request carries no sign-in, its principal
 * was already asked for, or the session id is no uuid.
 */
export function readBeforeSignIn(
  request: FastifyRequest,
  sessionId: string,
): EarlyReads | undefined {
  if (!isUuid(sessionId)) return undefined;
  return currentPrincipalRiding(request, START_RIDER, [sessionId]);
}

const START_RIDER: SignInRider = {
  subquery: (userId) =>
    `SELECT json_build_object('session', ${sessionAccessJson(userId, "$2")},
       'start', ${startTreeJson("$2")})::text`,
};

/** The early reads, as the access check and `readForStart` use them. */
async function earlyReads(
  early: EarlyReads,
  sessionId: string,
): Promise<{ session: SessionAccess; start: StartTree }> {
  const ridden = await early;
  const value = ridden === null ? null : (JSON.parse(ridden) as RiddenStart);
  const session = sessionAccessOf(value?.session ?? null, "member");
  return { session, start: startTreeFromJson(sessionId, (value as RiddenStart).start) };
}

interface RiddenStart {
  session: AccessRow | null;
  start: Parameters<typeof startTreeFromJson>[1];
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
  /** "Send now" (decision 069): what the run it stopped had written, as context. */
  partialWork?: string,
  /** The reads sent with the sign-in (`readBeforeSignIn`), when they were. */
  early?: EarlyReads,
): Promise<TChatResponse> {
  // Independent reads, side by side (one round trip, not four). Until the access check
  // passes the others' results are only held, never used or shown; an id that is no uuid
  // is refused by the check before anything is read.
  const sessionId = isUuid(request.session_id) ? request.session_id : null;
  const ridden = early && sessionId ? earlyReads(early, sessionId) : null;
  const [session, reads] = await Promise.all([
    ridden
      ? ridden.then((r) => r.session)
      : findSessionFor(deps.db, principal.user.id, request.session_id, { least: "member" }),
    readForStart(
      deps,
      principal,
      sessionId,
      ridden?.then((r) => r.start),
    ),
  ]);
  checkCanStart(session, reads, "send a message");
  // The message follows the branch on screen, and sees only it (decision 070).
  return launchRun(deps, control, session, reads, {
    content: request.message,
    stored: null,
    parentRunId: shownEnd(reads.tree),
    ...(partialWork ? { context: partialWork } : {}),
  });
}

/**
 * POST /api/ai/chat/{runId}/regenerate (decision 031): a new run of the message an ended run
 * answered, with the history that message had; the old run and its answer stay. Same checks
 * and the same planning hold as a new message.
 */
export async function regenerateRun(
  deps: EngineDeps & RunEventLogDeps,
  control: RunControl,
  principal: Principal,
  runId: string,
): Promise<TChatResponse> {
  const run = isUuid(runId) ? await getRun(deps.db, runId) : null;
  if (!run) throw new AppError(ERROR_CODES.notFound, 404, "This run does not exist.");
  const [session, reads] = await Promise.all([
    findSessionFor(deps.db, principal.user.id, run.session_id, { least: "member" }),
    readForStart(deps, principal, run.session_id),
  ]);
  checkCanStart(session, reads, "regenerate an answer");
  const message = reads.tree.messages.find((m) => m.id === run.message_id);
  if (!message) throw new AppError(ERROR_CODES.notFound, 404, "This run's message is gone.");
  // A new version of the message's answer, with the history the message had (decision 070).
  return launchRun(deps, control, session, reads, {
    content: message.content,
    stored: message,
    parentRunId: message.parent_run_id ?? null,
  });
}

/** What starting a run reads beside the session's access check. */
export interface StartReads {
  userId: string;
  userKeys: UserProviderKeys;
  /** The session's active run, if any. */
  active: RunRef | null;
  /** Whether a step of an ended run is being re-run in the session. */
  rerunning: boolean;
  tree: BranchTree;
}

/**
 * The reads every way of starting a run makes, side by side. A null session id (one that is
 * no uuid, which the access check refuses) reads nothing of the session.
 */
export async function readForStart(
  deps: EngineDeps,
  principal: Principal,
  sessionId: string | null,
  /** The session's tree, read already (`readBeforeSignIn`). */
  started?: Promise<StartTree>,
): Promise<StartReads> {
  const [start, userKeys] = await Promise.all([
    started ??
      (sessionId
        ? loadStartTree(deps.db, sessionId)
        : { tree: { messages: [], runs: [] }, active: null, rerunning: false }),
    deps.loadUserKeys(principal),
  ]);
  return { userId: principal.user.id, userKeys, ...start };
}

export function checkCanStart(
  session: Pick<TSession, "status">,
  { active, rerunning }: Pick<StartReads, "active" | "rerunning">,
  what: string,
): void {
  if (session.status !== "active") {
    throw new AppError(
      SESSION_ERROR_CODES.sessionNotActive,
      409,
      `This session is ${session.status}. Make it active again to ${what}.`,
      { status: session.status },
    );
  }
  if (active) throw runInProgress();
  // A step's re-run spends from the same budget: one piece of work at a time (decision 031).
  if (rerunning) {
    throw new AppError(
      RUN_ERROR_CODES.runInProgress,
      409,
      "A step is being re-run in this session. Wait for it to finish or stop it first.",
    );
  }
}

/** The turn a run answers. */
export interface RunTurn {
  content: string;
  /** The user's message when it is stored already (regenerate); null: store `content`. */
  stored: TChatMessage | null;
  /** The run the message follows (decision 070; null: the first turn). Earlier turns are its branch. */
  parentRunId: string | null;
  /** Said by the assistant after the history (decision 069: a stopped run's partial work). */
  context?: string;
}

/**
 * Holds the planning call's worst case in the statement that stores the run (and the
 * message, when it is new), then starts the run in the background.
 */
export async function launchRun(
  deps: EngineDeps & RunEventLogDeps,
  control: RunControl,
  session: OwnedSession,
  { userId, userKeys, tree }: StartReads,
  launch: RunTurn,
): Promise<TChatResponse> {
  const runId = randomUUID();
  const messageId = launch.stored?.id ?? randomUUID();
  const planCallId = randomUUID();
  const history = ancestorsOf(tree, launch.parentRunId)
    .slice(-HISTORY_MESSAGES)
    .map((m) => ({ role: m.role, content: m.content }));
  if (launch.context) history.push({ role: "assistant", content: launch.context });
  const mode = session.manual_agent_selection ? "manual" : "automatic";
  const ctx = createRunContext(deps, session, {
    runId,
    userId,
    mode,
    coordinatorModel: session.coordinator_model,
    userKeys,
    message: launch.stored ?? {
      id: messageId,
      session_id: session.id,
      role: "user",
      content: launch.content,
      run_id: runId,
      created_at: new Date().toISOString(),
      parent_run_id: launch.parentRunId,
    },
    history,
    status: "queued",
  });

  // What the run reads before its planning call, read while the run is stored (reads only).
  prefetchMaterial(ctx);
  prefetchRunTools(ctx);

  // The first step's worst case: the same estimate the planning call will reserve.
  const system = planSystem(chosenRoles(ctx));
  const estimate = deps.models.estimateCall({
    modelId: session.coordinator_model,
    userKeys,
    system,
    maxOutputTokens: PLAN_MAX_OUTPUT_TOKENS,
    messages: messagesFor(ctx, session.coordinator_model, launch.content, {
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
      content: launch.content,
      runId,
      parentRunId: launch.parentRunId,
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
  // the run (all or nothing); here its 402s answer the request. The plan holds its input
  // and a plan-sized slice (its answer is one object, not a stream that could grow its hold;
  // its output is capped at what the hold pays), and the
  // run starts only when what its smallest form costs — the plan, one agent and the answer,
  // each with a minimal answer — fits every limit: else the 402 comes before any model is
  // called, and nothing is stored or charged (decision 053).
  const plan = firstHold(estimate.model, estimate.inputTokensEstimate, estimate.maxOutputTokens);
  const planHold = estimate.billable
    ? priceOf(
        estimate.model,
        estimate.inputTokensEstimate,
        Math.min(estimate.maxOutputTokens, PLAN_SLICE_TOKENS),
      )
    : NO_CREDITS;
  const smallest = minimalRunCost(
    runCosts({ engine: deps, stats: null }, session, userKeys, launch.content.length),
  );
  const minimum = hundredths(Math.max(plan.minimum, smallest));
  // (The plan's own minimum uses its real prompt; the others' are the smallest they can be.)
  let planHeld: Reserved<object>;
  try {
    if (launch.stored) {
      planHeld = await reserveCall(
        ctx,
        planCallId,
        planHold,
        reserveAndStartRunOf(start.run),
        minimum,
      );
      if (!planHeld.written) await insertRun(deps.db, start.run);
    } else {
      const held = await reserveCall<StartedRun>(
        ctx,
        planCallId,
        planHold,
        reserveAndStartRun(start),
        minimum,
      );
      const started = held.written ?? (await startRunAlone(deps.db, start));
      ctx.message = storedMessage(start.message, started.message_created_at);
      planHeld = held;
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw runInProgress();
    throw error;
  }
  // That statement wrote the run's rows, not the planning call's step: its row is written
  // beside its call, as for a call without a hold.
  ctx.planHold = { ...planHeld, written: null };
  control.launch(ctx);
  return { run_id: runId, message_id: messageId };
}
