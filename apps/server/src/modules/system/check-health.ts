import type { THealth } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";

type ComponentHealth = THealth["database"];

async function probe(kind: string, ping: () => Promise<unknown>): Promise<ComponentHealth> {
  const started = performance.now();
  try {
    await ping();
    return {
      status: "up",
      kind,
      latency_ms: Math.round((performance.now() - started) * 100) / 100,
    };
  } catch (error) {
    return {
      status: "down",
      kind,
      latency_ms: null,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

const started = Date.now();

/** How long one round trip's answer serves further health checks before a new one starts. */
const PROBE_REUSE_MS = 250;
/** The oldest round trip a check may be answered from while the next one is on its way. */
const ANSWER_MAX_AGE_MS = 1000;

type Probed = { database: ComponentHealth; redis: ComponentHealth | undefined };

/**
 * A real round trip to each dependency (one statement, `SELECT 1`, and Redis's PING), at most
 * one every 250 ms: checks that arrive while one is in flight, or just after, share its
 * answer, so a load balancer polling hard (or a burst of checks) costs the database one query,
 * not one each. Once an answer is 250 ms old the next check starts a new round trip and is
 * answered from the last one while it lasts, so checks never wait for the database while
 * an answer under a second old exists; after a second without checks, the check waits for
 * its own round trip (decision 082).
 */
export function createHealthCheck(app: FastifyInstance): () => Promise<THealth> {
  let settled: { probed: Probed; at: number } | null = null;
  let inFlight: Promise<Probed> | null = null;
  // A probe never rejects (probe() answers "down"), so a round trip nobody awaits is safe.
  const probeAll = (): Promise<Probed> => {
    inFlight ??= Promise.all([
      probe(app.db.kind, () => app.db.ping()),
      app.redis ? probe("redis", () => app.redis!.ping()) : Promise.resolve(undefined),
    ]).then(([database, redis]) => {
      settled = { probed: { database, redis }, at: Date.now() };
      inFlight = null;
      return settled.probed;
    });
    return inFlight;
  };
  const probed = (): Probed | Promise<Probed> => {
    const age = settled ? Date.now() - settled.at : Number.POSITIVE_INFINITY;
    if (settled && age < PROBE_REUSE_MS) return settled.probed;
    const next = probeAll();
    return settled && age < ANSWER_MAX_AGE_MS ? settled.probed : next;
  };
  // The same probe's answer within the same second is the same object, so its JSON is
  // made once (systemRoutes), not for every check of a load balancer polling hard.
  let last: { probed: object; health: THealth } | null = null;
  return async () => {
    const current = await probed();
    const health = answerOf(app, current);
    if (last?.probed === current && last.health.uptime_s === health.uptime_s) return last.health;
    last = { probed: current, health };
    return health;
  };
}

function answerOf(app: FastifyInstance, { database, redis }: Probed): THealth {
  const up = database.status === "up" && (!redis || redis.status === "up");
  return {
    status: up ? "ok" : "degraded",
    version: app.appVersion,
    uptime_s: Math.round((Date.now() - started) / 1000),
    database,
    ...(redis ? { redis } : {}),
  };
}
