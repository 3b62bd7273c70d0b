import {
  ERROR_CODES,
  isRunActive,
  NO_CREDITS,
  RUN_ERROR_CODES,
  SESSION_ERROR_CODES,
  type TChatMessage,
  type TRun,
  type TRunStep,
  type TSession,
} from "@cohort/contracts";
import { isUuid } from "../../db/uuid";
import type { Principal } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import type { UserProviderKeys } from "../models/providers";
import { findSessionFor } from "../sessions/find-session";
import type { OwnedSession } from "../sessions/session-row";
import { ancestorsOf, type BranchTree, loadBranchTree } from "./branch-history";
import { type CallSpec, routeCall } from "./call-model";
import { reserveAndOpenStep } from "./call-statements";
import { endOpenReruns } from "./end-orphaned-runs";
import { type Reserved, reserveCall } from "./hold-credits";
import { firstHold } from "./hold-slices";
import { HISTORY_MESSAGES } from "./prompts";
import type { Draft } from "./run-agents";
import {
  createRunContext,
  drain,
  type EngineDeps,
  haltForError,
  type RunContext,
} from "./run-context";
import type { RunControl } from "./run-control";
import type { RunEventLogDeps } from "./run-events";
import { findActiveRun, getRun, insertStep, isUniqueViolation } from "./run-store";
import { stepRowOf } from "./write-step";

// What a step's re-run and an answer's re-write share (decision 031): the checks on the ended
// run they work on, its context, the call's hold opened with its row, and the background work.

export const runNotFound = () =>
  new AppError(ERROR_CODES.notFound, 404, "This run does not exist.");

export const rerunInProgress = () =>
  new AppError(
    RUN_ERROR_CODES.rerunInProgress,
    409,
    "A step of this run is already being re-run. Wait for it to finish or stop it first.",
  );

/** The text each plan step gave the run: its first version, as revised when it was. */
export function draftsOf(steps: readonly TRunStep[]): Map<string, Draft> {
  const drafts = new Map<string, Draft>();
  for (const s of steps) {
    if (s.version !== 1 || !s.step_id || !s.role) continue;
    if (s.kind === "agent") {
      drafts.set(s.step_id, {
        stepId: s.step_id,
        role: s.role,
        text: s.output,
        ok: s.status === "completed",
      });
    }
  }
  for (const s of steps) {
    const draft = s.step_id ? drafts.get(s.step_id) : undefined;
    if (s.kind === "revision" && s.status === "completed" && draft?.ok) {
      drafts.set(draft.stepId, { ...draft, text: s.output });
    }
  }
  return drafts;
}

export function checkSessionFree(session: Pick<TSession, "status">, active: unknown): void {
  if (session.status !== "active") {
    throw new AppError(
      SESSION_ERROR_CODES.sessionNotActive,
      409,
      `This session is ${session.status}. Make it active again to re-run a step.`,
      { status: session.status },
    );
  }
  if (active) {
    throw new AppError(
      RUN_ERROR_CODES.runInProgress,
      409,
      "A task is running in this session. Wait for it to finish or stop it, then re-run the step.",
    );
  }
}

export interface EndedRun {
  userId: string;
  session: OwnedSession;
  run: TRun;
  messages: TChatMessage[];
  /** The session's branches (decision 070): the history a message had is its branch's. */
  tree: BranchTree;
  userKeys: UserProviderKeys;
}

/**
 * An ended run in a session the user may act in (member+ of its workspace), with the
 * session's messages and the user's keys: 404 for anyone else's ids, 403 for a viewer, 409 (`stillGoing`) while the run goes, while another run
 * of the session goes, or while this process already works on the run.
 */
export async function loadEndedRun(
  deps: EngineDeps,
  control: RunControl,
  principal: Principal,
  target: { sessionId: string; runId: string },
  stillGoing: string,
): Promise<EndedRun> {
  const session = await findSessionFor(deps.db, principal.user.id, target.sessionId, {
    least: "member",
  });
  const run = isUuid(target.runId) ? await getRun(deps.db, target.runId) : null;
  if (!run || run.session_id !== session.id) throw runNotFound();
  if (isRunActive(run.status)) throw new AppError(RUN_ERROR_CODES.runInProgress, 409, stillGoing);
  const [active, tree, userKeys] = await Promise.all([
    findActiveRun(deps.db, session.id),
    loadBranchTree(deps.db, session.id),
    deps.loadUserKeys(principal),
  ]);
  checkSessionFree(session, active);
  if (control.busy(run.id)) throw rerunInProgress();
  return { userId: principal.user.id, session, run, messages: tree.messages, tree, userKeys };
}

/** The run's message and where it stands among the session's messages (null: not stored). */
export function messageOf(ended: EndedRun): { message: TChatMessage; index: number } | null {
  const index = ended.messages.findIndex((m) => m.id === ended.run.message_id);
  const message = ended.messages[index];
  return message ? { message, index } : null;
}

/** A context for more work on the ended run: its message, with the history before it. */
export function endedRunContext(
  deps: EngineDeps & RunEventLogDeps,
  ended: EndedRun,
  { message }: { message: TChatMessage; index: number },
): RunContext {
  const { run } = ended;
  const ctx = createRunContext(deps, ended.session, {
    runId: run.id,
    userId: ended.userId,
    mode: run.mode,
    coordinatorModel: run.coordinator_model,
    userKeys: ended.userKeys,
    message,
    history: ancestorsOf(ended.tree, message.parent_run_id ?? null)
      .slice(-HISTORY_MESSAGES)
      .map((m) => ({ role: m.role, content: m.content })),
    status: run.status,
  });
  restoreMaterial(ctx, run);
  return ctx;
}

/**
 * The passages the run gave its steps, as stored (decision 037): a re-run of a step works
 * from the same numbered passages as its first version, and a re-written answer from the
 * ones its drafts cite.
 */
function restoreMaterial(ctx: RunContext, run: TRun): void {
  const byNumber = new Map((run.passages ?? []).map((p) => [p.n, p]));
  for (const passage of byNumber.values()) ctx.material.passages.set(passage.chunk_id, passage);
  for (const step of run.steps) {
    if (step.kind !== "agent" || step.version !== 1 || !step.step_id) continue;
    const given = (step.passages ?? []).flatMap((n) => {
      const passage = byNumber.get(n);
      return passage ? [passage] : [];
    });
    if (given.length > 0) ctx.material.stepPassages.set(step.step_id, given);
  }
}

/**
 * Reserves the call's hold in the statement that opens its step row, so a budget or balance
 * that cannot cover it is the request's 402. A call that holds nothing (the user's own key)
 * opens its row too: the open row keeps a second piece of work on this run out, on every
 * instance (the unique index of migrations 0018/0019), which is a 409 here.
 */
export async function openRerunCall<T>(
  ctx: RunContext,
  spec: CallSpec<T>,
  callId: string,
): Promise<CallSpec<T>> {
  const route = routeCall(ctx, spec, callId);
  const row = stepRowOf(ctx, route.target);
  try {
    const first = firstHold(route.model, route.inputTokens, route.maxOutputTokens);
    let reserved: Reserved = await reserveCall(
      ctx,
      callId,
      route.billable ? first.desired : NO_CREDITS,
      reserveAndOpenStep(row),
      first.minimum,
    );
    if (!reserved.written) {
      await insertStep(ctx.deps.db, row, null);
      reserved = { ...reserved, written: {} };
    }
    return { ...spec, reserved };
  } catch (error) {
    ctx.events.close();
    if (isUniqueViolation(error)) throw rerunInProgress();
    throw error;
  }
}

/**
 * Runs the work in the background on this process: a halt (stop, budget, balance) ends it
 * early and anything else is logged; its events are written out either way. The run's own
 * row, answer, total and score are never touched.
 */
export function launchRerunWork(
  control: RunControl,
  ctx: RunContext,
  work: () => Promise<void>,
): void {
  control.launchRerun(ctx, async () => {
    try {
      await work();
    } catch (error) {
      haltForError(ctx, error);
    } finally {
      await drain(ctx);
      await endOpenReruns(ctx.deps, ctx.runId).catch((error: unknown) => {
        ctx.deps.log.error({ err: error, runId: ctx.runId }, "open re-run rows not ended");
      });
      await ctx.events.flush().catch(() => {});
      ctx.events.close();
    }
  });
}
