import type { TAgentPreferences, TChatMessage, TRunMode } from "@cohort/contracts";
import type { Db } from "../../db/client";
import type { GatewayMessage, ModelGateway } from "../models/gateway";
import type { UserProviderKeys } from "../models/providers";
import type { Budget } from "./budget";
import type { CreditHold, CreditsPort } from "./credits-port";
import type { RunEventLog } from "./run-events";

export interface EngineLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** What the engine needs from the app; plain values, so benchmarks can build it too. */
export interface EngineDeps {
  db: Db;
  models: ModelGateway;
  credits: CreditsPort;
  /** The user's own provider keys (decrypted); calls on them cost no credits. */
  loadUserKeys(userId: string): Promise<UserProviderKeys>;
  log: EngineLogger;
}

export type CancelReason = "user" | "shutdown";

/** A run that must end now: the budget or the balance would be passed, or no agent worked. */
export class RunStop extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RunStop";
  }
}

/** Everything one run's phases share. */
export interface RunContext {
  deps: EngineDeps;
  runId: string;
  sessionId: string;
  userId: string;
  mode: TRunMode;
  coordinatorModel: string;
  preferences: TAgentPreferences;
  /** Loaded once when the run is accepted; every call of the run uses them. */
  userKeys: UserProviderKeys;
  /** The user's message that started the run. */
  message: TChatMessage;
  /** Earlier turns of the session, oldest first (not trimmed yet). */
  history: GatewayMessage[];
  events: RunEventLog;
  budget: Budget;
  /** Aborts every model call of the run: a stop, a shutdown, or a RunStop. */
  controller: AbortController;
  cancelReason: CancelReason | null;
  stop: RunStop | null;
  /** The planning call's hold, reserved when the message was accepted. */
  planHold: { callId: string; hold: CreditHold | null; worstCase: number } | null;
  totals: { credits: number; inputTokens: number; outputTokens: number };
  startedAt: number;
  /** Bookkeeping still being written (charges, step rows); the run ends after it. */
  pending: Set<Promise<void>>;
  /** Updates of the run's row, one after another in order. */
  rowWrites: Promise<void>;
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

/** Queues an update of the run's row after the ones before it. */
export function persist(ctx: RunContext, write: () => Promise<void>): void {
  ctx.rowWrites = ctx.rowWrites.then(write).catch((error: unknown) => {
    ctx.deps.log.error({ err: error, runId: ctx.runId }, "run row not updated");
  });
}

/** Resolves when all tracked bookkeeping and row updates are written. */
export async function drain(ctx: RunContext): Promise<void> {
  while (ctx.pending.size > 0) await Promise.all([...ctx.pending]);
  await ctx.rowWrites;
}

/** Records why the run ends (the first reason wins) and aborts its calls. */
export function haltRun(ctx: RunContext, reason: CancelReason | RunStop): void {
  if (ctx.controller.signal.aborted) return;
  if (reason instanceof RunStop) ctx.stop = reason;
  else ctx.cancelReason = reason;
  ctx.controller.abort(reason instanceof RunStop ? reason : new Error(`run ${reason} stop`));
}

/**
 * Runs calls side by side and waits for all of them, even when one fails: a RunStop halts
 * the run (aborting the others) and the first failure is thrown once everything settled.
 */
export async function inParallel<T>(
  ctx: RunContext,
  tasks: readonly (() => Promise<T>)[],
): Promise<T[]> {
  const results = await Promise.allSettled(
    tasks.map((task) =>
      task().catch((error: unknown) => {
        if (error instanceof RunStop) haltRun(ctx, error);
        else if (!ctx.controller.signal.aborted) ctx.controller.abort(error);
        throw error;
      }),
    ),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}
