import { randomUUID } from "node:crypto";
import { hundredthsOf, NO_CREDITS, type TRunEvent } from "@cohort/contracts";
import { createDb, type Db } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import type { CreditsDeps } from "../../src/modules/credits/credits-deps";
import { type CreditBalance, getBalance } from "../../src/modules/credits/get-balance";
import { grantCredits } from "../../src/modules/credits/grant-credits";
import { createModelGateway } from "../../src/modules/models/gateway";
import { Budget } from "../../src/modules/orchestration/budget";
import { createCreditsPort } from "../../src/modules/orchestration/credits-port";
import type { EngineDeps, RunContext } from "../../src/modules/orchestration/run-context";
import { createEventHub, createRunEventLog } from "../../src/modules/orchestration/run-events";
import { insertRun } from "../../src/modules/orchestration/run-store";
import { createSession } from "../../src/modules/sessions/create-session";
import { createUser } from "../../src/modules/users/create-user";
import { payerFor } from "../../src/modules/workspaces/workspace-access";
import type { Realtime } from "../../src/platform/realtime";
import { simulatorOnlyConfig } from "./models-config";

/**
 * The run engine without the HTTP app, for its unit tests: a real in-memory database with
 * every migration, the real credits module and the model gateway on its built-in simulator.
 * Only the socket.io server is left out: what the engine sends to a room is recorded.
 */
export interface EngineFixture {
  db: Db;
  deps: EngineDeps;
  /** Every event sent to a session's room, in send order. */
  sent: TRunEvent[];
  errors: unknown[];
  /** A stored, queued run of a new user holding `credits`, and the context to drive it. */
  newRun(options?: { credits?: number; budget?: number | null }): Promise<RunContext>;
  balanceOf(userId: string): Promise<CreditBalance>;
  close(): Promise<void>;
}

export async function createEngineFixture(): Promise<EngineFixture> {
  const db = await createDb({});
  await migrate(db);
  const sent: TRunEvent[] = [];
  const errors: unknown[] = [];
  const realtime = {
    io: { to: () => ({ emit: (_name: string, event: TRunEvent) => sent.push(event) }) },
  } as unknown as Realtime;
  const log = {
    info: () => {},
    warn: () => {},
    error: (details: object) => {
      errors.push(details);
    },
  };
  const creditsDeps: CreditsDeps = { db, holdTtlMs: 600_000, publish: () => {} };
  const models = createModelGateway({
    config: simulatorOnlyConfig({ maxAttempts: 1 }),
  });
  const deps: EngineDeps = {
    db,
    models,
    credits: createCreditsPort(creditsDeps),
    loadUserKeys: async () => ({}),
    loadUserKeysOf: async () => ({}),
    log,
  };
  const hub = createEventHub({ sendFirst: false });

  async function newRun(options: { credits?: number; budget?: number | null } = {}) {
    const user = await createUser(db, { email: `${randomUUID()}@example.com` });
    if (options.credits) {
      await grantCredits(creditsDeps, {
        userId: user.id,
        credits: options.credits,
        reason: "admin_adjustment",
        reference: randomUUID(),
      });
    }
    const session = await createSession(db, user.id, {
      title: "Engine test",
      description: "",
      coordinator_model: "coreason",
      manual_agent_selection: false,
      agent_preferences: null,
      budget_credits: options.budget ?? null,
    });
    const runId = randomUUID();
    const messageId = randomUUID();
    await insertRun(db, {
      id: runId,
      sessionId: session.id,
      userId: user.id,
      messageId,
      mode: "automatic",
      coordinatorModel: "coreason",
      instanceId: "engine-test",
    });
    const ctx: RunContext = {
      deps,
      runId,
      sessionId: session.id,
      workspaceId: session.workspace_id,
      payer: payerFor(session.workspace_id, user.id),
      userId: user.id,
      mode: "automatic",
      coordinatorModel: "coreason",
      preferences: {},
      userKeys: {},
      message: {
        id: messageId,
        session_id: session.id,
        role: "user",
        content: "Plan a small launch",
        run_id: runId,
        created_at: new Date().toISOString(),
      },
      history: [],
      events: createRunEventLog({ db, realtime, events: hub, log }, session.id, runId),
      budget: new Budget(options.budget ? hundredthsOf(options.budget) : null, NO_CREDITS),
      status: "queued",
      toolSettings: { policy: "ask_risky", roles: {} },
      channel: "web",
      tools: { list: null, tainted: new Set(), charged: new Map() },
      controller: new AbortController(),
      material: { documents: [], memories: [], passages: new Map(), stepPassages: new Map() },
      planHold: null,
      totals: { credits: NO_CREDITS, inputTokens: 0, outputTokens: 0 },
      criticScore: null,
      startedAt: performance.now(),
      pending: new Set(),
      handedOff: false,
    };
    return ctx;
  }

  return {
    db,
    deps,
    sent,
    errors,
    newRun,
    balanceOf: (userId) => getBalance(db, userId),
    close: () => db.close(),
  };
}
