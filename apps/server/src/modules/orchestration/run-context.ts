import {
  defaultSessionTools,
  ERROR_CODES,
  type Hundredths,
  hundredthsOf,
  NO_CREDITS,
  type TAgentPreferences,
  type TChatMessage,
  type TRunCancelReason,
  type TRunHalt,
  type TRunMode,
  type TRunMoneyFailure,
  type TRunPassage,
  type TRunStatus,
  type TSession,
  type TSessionToolSettings,
  type TUsedMemory,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import type { ApprovalWaiters } from "../../platform/approval-waiters";
import type { Principal } from "../../platform/auth";
import { INTERNAL_ERROR_MESSAGE } from "../../platform/errors";
import type { Payer } from "../credits/payer";
import type { DocumentSearch } from "../documents/document-search";
import type { ProposeMemoriesInput } from "../memory/propose-memories";
import type { GatewayMessage, MadeImage, ModelGateway } from "../models/gateway";
import type { UserProviderKeys } from "../models/providers";
import type { ToolDefinition } from "../tools/tool-definition";
import type { ToolRegistry } from "../tools/tool-registry";
import { payerFor } from "../workspaces/workspace-access";
import { Budget } from "./budget";
import type { CodeCheckPort } from "./check-drafts";
import type { CreditsPort } from "./credits-port";
import type { Reserved } from "./hold-credits";
import type { PlanDocument } from "./prompts";
import { createRunEventLog, type RunEventLog, type RunEventLogDeps } from "./run-events";

export interface EngineLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** The documents module's search, as the engine uses it (decision 037). */
export interface RunDocuments extends DocumentSearch {
  /** The session's attached document ids, oldest attachment first. */
  attached(sessionId: string): Promise<string[]>;
}

/**
 * The memory module, as the engine uses it (decision 037): the memories of the session's
 * workspace, when the acting user's plan has memory (decision 040).
 */
export interface RunMemories {
  find(input: {
    workspaceId: string;
    userId: string;
    task: string;
    limit: number;
  }): Promise<TUsedMemory[]>;
  /** After a completed run; never throws (the memory module logs its failures). */
  propose(input: ProposeMemoriesInput): Promise<void>;
}

/** The images module, as the engine uses it (decision 064): keeps an image a lane made. */
export interface RunImages {
  store(
    owner: { sessionId: string; runId: string; callId: string; userId: string },
    image: MadeImage,
  ): Promise<{ id: string; url: string }>;
}

/** What the engine needs from the app; plain values, so benchmarks can build it too. */
export interface EngineDeps {
  db: Db;
  models: ModelGateway;
  credits: CreditsPort;
  /** The user's own provider keys (decrypted); calls on them cost no credits. */
  loadUserKeys(principal: Principal): Promise<UserProviderKeys>;
  /** The same by user id: a run taken over by another instance (decision 047). */
  loadUserKeysOf(userId: string): Promise<UserProviderKeys>;
  log: EngineLogger;
  /** Absent: runs work without documents (benchmarks, engine tests). */
  documents?: RunDocuments;
  /** Absent: runs use and propose no memories. */
  memories?: RunMemories;
  /** Absent: an image model's picture is put into its text as a data URL. */
  images?: RunImages;
  /** Absent: lanes call no tools (benchmarks, engine tests; decision 058). */
  tools?: EngineTools;
  /** Absent: the Critic scores code by reading it (decision 062: it runs the tests). */
  code?: CodeCheckPort;
  /** Absent: plans are never reviewed and lanes cannot be steered (decision 069). */
  steering?: RunSteering;
}

/**
 * Steering (decision 069): wakes a run when a person starts its plan, steers or skips a lane
 * or queues a message, on any instance (the approvals' waiters, decision 059).
 */
export interface RunSteering {
  waiters: ApprovalWaiters;
  planReviewTimeoutMs: number;
}

/** The tool layer as the engine uses it (decision 058). */
export interface EngineTools {
  registry: ToolRegistry;
  config: { outputMaxChars: number; stepsMax: number; timeoutMaxMs: number };
}

/** A run's tools: loaded once (at the first lane that may use one), and lanes' taint. */
export interface RunToolState {
  list: Promise<ToolDefinition[]> | null;
  /** Lanes (model call ids) that have read untrusted tool output (decision 058). */
  tainted: Set<string>;
  /** What each lane's (model call id's) priced tool calls were charged (decision 067). */
  charged: Map<string, Hundredths>;
}

/**
 * What a run works from besides the conversation (decision 037): the session's attached
 * documents, the memories put into its plan, and the passages its steps were given, numbered
 * once per run.
 */
/**
 * Every passage and tool source given so far in a run, by chunk id (or address); its `n` is
 * its citation number in the run.
 */
export type RunPassages = Map<string, TRunPassage>;

export interface RunMaterial {
  documents: PlanDocument[];
  memories: TUsedMemory[];
  /** Every passage given so far (RunPassages). */
  passages: RunPassages;
  /** The passages each plan step (by id) works from, best first. */
  stepPassages: Map<string, TRunPassage[]>;
}

export type CancelReason = TRunCancelReason;

/**
 * The one error that unwinds a run: thrown only by `haltRun`, after the run's end is decided
 * and its calls are aborted. Everything else a phase meets is a value (a call's failure) or a
 * bug (ends the run as an internal failure).
 */
export class RunHalted extends Error {
  constructor(readonly end: TRunHalt) {
    super(end.status === "failed" ? end.message : `run ${end.reason} stop`);
    this.name = "RunHalted";
  }
}

/**
 * Everything one run's phases share. Read-only except six fields, each naming its one
 * writer in brackets.
 */
export interface RunContext {
  readonly deps: EngineDeps;
  readonly runId: string;
  readonly sessionId: string;
  /** The session's workspace: its documents and memories are the run's (decision 040). */
  readonly workspaceId: string;
  readonly userId: string;
  /**
   * Who pays for the run's calls: the session's workspace's account, and in a team workspace
   * the member whose monthly cap they count against (`payerFor`).
   */
  readonly payer: Payer;
  readonly mode: TRunMode;
  readonly coordinatorModel: string;
  readonly preferences: TAgentPreferences;
  /** Loaded once when the run is accepted; every call of the run uses them. */
  readonly userKeys: UserProviderKeys;
  /** Earlier turns of the session, oldest first (not trimmed yet). */
  readonly history: GatewayMessage[];
  readonly events: RunEventLog;
  readonly budget: Budget;
  readonly startedAt: number;
  /**
   * Aborts every model call of the run. Once aborted, its reason is the run's end (a
   * `TRunHalt`, see `haltRun`): the one place that says the run is stopping and why.
   */
  readonly controller: AbortController;
  /** The user's message that started the run, as stored [startRun]. */
  message: TChatMessage;
  /** The stored status [advance]. */
  status: TRunStatus;
  /** The session's tool settings, as the run started (decision 058). */
  readonly toolSettings: TSessionToolSettings;
  /** Where the run came from: "api" (public API, MCP run_team) cannot ask for approvals. */
  readonly channel: "web" | "api";
  readonly tools: RunToolState;
  /** The planning call's hold, reserved when the message was accepted [planRun takes it]. */
  planHold: Reserved | null;
  /** What the run's calls used [the hold wrapper]. */
  totals: { credits: Hundredths; inputTokens: number; outputTokens: number };
  /** The Critic's score, stored with the run's end [reviewDrafts]. */
  criticScore: number | null;
  /** Documents, memories and passages [gatherMaterial, retrievePassages]. */
  readonly material: RunMaterial;
  /** Bookkeeping still being written (charges, step rows); the run ends after it. */
  readonly pending: Set<Promise<void>>;
  /**
   * This instance stops working on the run without ending it: another instance goes on with
   * it (a drain's end, a takeover; decision 047) [run control].
   */
  handedOff: boolean;
  /** "Review the plan first" was on when the run started (decision 069). */
  readonly reviewPlan?: boolean;
}

/** What a new context needs beyond the session: the run and the user's message. */
export interface RunContextInit {
  runId: string;
  userId: string;
  mode: TRunMode;
  coordinatorModel: string;
  userKeys: UserProviderKeys;
  message: TChatMessage;
  history: GatewayMessage[];
  status: TRunStatus;
  /** Absent: "web". */
  channel?: "web" | "api";
}

/**
 * A context for work on a run: the run itself (`startRun`) or a re-run of one of its steps
 * (`rerunStep`). The session's budget is taken as it stands now.
 */
export function createRunContext(
  deps: EngineDeps & RunEventLogDeps,
  session: Pick<
    TSession,
    "id" | "workspace_id" | "agent_preferences" | "budget_credits" | "spent_credits"
  > &
    Partial<Pick<TSession, "tools" | "review_plan">>,
  init: RunContextInit,
): RunContext {
  return {
    deps,
    channel: "web",
    ...init,
    toolSettings: session.tools ?? defaultSessionTools(),
    tools: { list: null, tainted: new Set(), charged: new Map() },
    sessionId: session.id,
    workspaceId: session.workspace_id,
    payer: payerFor(session.workspace_id, init.userId),
    preferences: session.agent_preferences ?? {},
    events: createRunEventLog(deps, session.id, init.runId),
    budget: new Budget(
      session.budget_credits === null ? null : hundredthsOf(session.budget_credits),
      hundredthsOf(session.spent_credits),
    ),
    controller: new AbortController(),
    planHold: null,
    totals: { credits: NO_CREDITS, inputTokens: 0, outputTokens: 0 },
    criticScore: null,
    material: { documents: [], memories: [], passages: new Map(), stepPassages: new Map() },
    startedAt: performance.now(),
    pending: new Set(),
    handedOff: false,
    reviewPlan: session.review_plan === true && (init.channel ?? "web") === "web",
  };
}

/**
 * Runs bookkeeping beside the run instead of in its way: settling a call's charge, saving
 * its step. Failures are logged; the run awaits everything before it ends (`drain`).
 */
export function track(ctx: RunContext, work: () => Promise<void>): void {
  const promise: Promise<void> = work()
    .catch((error: unknown) => {
      ctx.deps.log.error({ err: error, runId: ctx.runId }, "run bookkeeping failed");
    })
    .finally(() => {
      ctx.pending.delete(promise);
    });
  ctx.pending.add(promise);
}

/** Resolves when all tracked bookkeeping is written. */
export async function drain(ctx: RunContext): Promise<void> {
  while (ctx.pending.size > 0) await Promise.all([...ctx.pending]);
}

/** How the run is ending, once something halted it; null while it goes on. */
export function haltOf(ctx: RunContext): TRunHalt | null {
  const { signal } = ctx.controller;
  return signal.aborted ? (signal.reason as TRunHalt) : null;
}

/**
 * Decides that the run ends (the first reason wins) and aborts its calls; returns the error
 * that unwinds the caller. A stop asked by the user, a shutdown, a failure that ends the run.
 */
export function haltRun(ctx: RunContext, end: TRunHalt): RunHalted {
  if (!ctx.controller.signal.aborted) ctx.controller.abort(end);
  return new RunHalted(haltOf(ctx) as TRunHalt);
}

export const cancelled = (reason: CancelReason): TRunHalt => ({ status: "cancelled", reason });
export const failed = (code: string, message: string, money?: TRunMoneyFailure): TRunHalt => ({
  status: "failed",
  code,
  message,
  ...(money ? { money } : {}),
});

/**
 * What an error means for the run: a halt already decided stays; anything else is a bug or
 * an outage, logged here and ending the run as an internal failure.
 */
export function haltForError(ctx: RunContext, error: unknown): RunHalted {
  if (error instanceof RunHalted) return error;
  if (!ctx.controller.signal.aborted) {
    ctx.deps.log.error({ err: error, runId: ctx.runId }, "run failed unexpectedly");
  }
  return haltRun(ctx, failed(ERROR_CODES.internal, INTERNAL_ERROR_MESSAGE));
}

/** Throws the run's halt, if it has one: phases check between their calls. */
export function throwIfHalted(ctx: RunContext): void {
  const end = haltOf(ctx);
  if (end) throw new RunHalted(end);
}

/**
 * Runs tasks side by side and waits for all of them, even when one fails: the first error
 * halts the run (aborting the others) and is thrown once everything settled.
 */
export async function inParallel<T>(
  ctx: RunContext,
  tasks: readonly (() => Promise<T>)[],
): Promise<T[]> {
  const results = await Promise.allSettled(
    tasks.map((task) =>
      task().catch((error: unknown) => {
        throw haltForError(ctx, error);
      }),
    ),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failure) throw failure.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
