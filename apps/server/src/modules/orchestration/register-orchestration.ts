import type { FastifyInstance } from "fastify";
import { createApprovalWaiters } from "../../platform/approval-waiters";
import { codeCheckPort } from "../code-runner/register-code-runner";
import { creditsDeps } from "../credits/credits-deps";
import { documentSearch } from "../documents/document-search";
import { createDocumentStore } from "../documents/document-store";
import { attachedDocumentIds } from "../documents/session-documents";
import { storeImage } from "../images/store-image";
import { proposeMemories } from "../memory/propose-memories";
import { findRelevantMemories } from "../memory/relevant-memories";
import { apiKeyDeps } from "../users/api-key-deps";
import { loadSignedInUserKeys, loadUserKeys } from "../users/load-user-keys";
import { branchRoutes } from "./branch-routes";
import { createCreditsPort } from "./credits-port";
import { orchestrationRoutes } from "./routes";
import type { EngineDeps } from "./run-context";
import { createRunControl, type RunControl } from "./run-control";
import { createEventHub, type RunEventLogDeps } from "./run-events";
import { registerSessionSockets } from "./session-socket";
import { steeringRoutes } from "./steering-routes";

declare module "fastify" {
  interface FastifyInstance {
    /** The run engine's dependencies and the control of runs (modules/orchestration). */
    orchestration: { deps: EngineDeps & RunEventLogDeps; control: RunControl };
  }
}

/**
 * How many runs one instance starts itself; more wait in the queue for any instance (whose
 * workers take as many again: decision 083).
 */
const RUNS_PER_INSTANCE = 100;

/**
 * Wires the run engine into the app: its routes and socket events, the control of runs
 * (stops across instances through Redis when there is one), recovery of runs a crash left
 * active, and a clean stop of every run when the app closes.
 */
export async function registerOrchestration(
  app: FastifyInstance,
  options: { redisPrefix: string },
): Promise<void> {
  const keyDeps = apiKeyDeps(app);
  const search = documentSearch(app);
  const imageStore = createDocumentStore(app.config.documents, app.config.dataDir, "images");
  const deps: EngineDeps & RunEventLogDeps = {
    db: app.db,
    models: app.models,
    credits: createCreditsPort(creditsDeps(app)),
    loadUserKeys: (principal) => loadSignedInUserKeys(keyDeps, principal),
    loadUserKeysOf: (userId) => loadUserKeys(keyDeps, userId),
    realtime: app.realtime,
    // One process sends run events before storing them; several (Redis) store first.
    events: createEventHub({ sendFirst: !app.redis }),
    log: app.log,
    // What runs work from besides the conversation (decision 037).
    documents: {
      search: (input) => search.search(input),
      describe: (workspaceId, ids) => search.describe(workspaceId, ids),
      attached: (sessionId) => attachedDocumentIds(app.db, sessionId),
    },
    memories: {
      find: (input) => findRelevantMemories(app.db, input),
      propose: (input) => proposeMemories(app, input),
    },
    // Where an image model's pictures are kept (decision 064).
    images: {
      store: (owner, image) => storeImage(app.db, imageStore, owner, image),
    },
    // The tool layer (decision 058): the registry other modules add their providers to.
    tools: { registry: app.tools, config: app.config.tools },
    // The Critic runs the drafts' code and tests (decision 062).
    code: codeCheckPort(app.codeRunner),
    // Plan review, Steer, Skip and queued messages wake runs on any instance (decision 069).
    steering: {
      waiters: createApprovalWaiters({
        redis: app.redis
          ? { pub: app.redis, channel: `${options.redisPrefix}steering` }
          : undefined,
        log: app.log,
      }),
      planReviewTimeoutMs: app.config.planReviewTimeoutMs,
    },
  };
  const control = await createRunControl({
    deps,
    redis: app.redis ? { pub: app.redis, channel: `${options.redisPrefix}runs:cancel` } : undefined,
    sweepMs: app.config.runSweepIntervalMs,
    // PostgreSQL: a run starts where it was posted; through the job queue, a crashed or
    // draining instance's runs are resumed elsewhere (decisions 047, 083).
    queue: app.db.connectionString
      ? {
          connectionString: app.db.connectionString,
          task: `${options.redisPrefix}run`,
          concurrency: RUNS_PER_INSTANCE,
        }
      : undefined,
  });
  app.decorate("orchestration", { deps, control });
  await control.recover();
  registerSessionSockets(app);
  await app.register(orchestrationRoutes);
  await app.register(branchRoutes);
  await app.register(steeringRoutes);
  // preClose: before the database and Redis close, so stopped runs are stored and released.
  app.addHook("preClose", async () => {
    await control.close();
    await deps.steering?.waiters.close();
  });
}
