import type { THealth } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { singleFlight } from "../../platform/single-flight";

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

/** How long one round trip's answer serves further health checks. */
const PROBE_REUSE_MS = 250;

/**
 * A real round trip to each dependency, at most one every 250 ms: checks that arrive while
 * one is in flight, or just after, share its answer, so a load balancer polling hard (or a
 * burst of checks) costs the database one query, not one each.
 */
export function createHealthCheck(app: FastifyInstance): () => Promise<THealth> {
  const probeAll = singleFlight(async () => {
    const [database, redis] = await Promise.all([
      probe(app.db.kind, () => app.db.ping()),
      app.redis ? probe("redis", () => app.redis!.ping()) : Promise.resolve(undefined),
    ]);
    return { database, redis };
  }, PROBE_REUSE_MS);
  // The same probe's answer within the same second is the same object, so its JSON is
  // made once (systemRoutes), not for every check of a load balancer polling hard.
  let last: { probed: object; health: THealth } | null = null;
  return async () => {
    const probed = await probeAll();
    const health = answerOf(app, probed);
    if (last?.probed === probed && last.health.uptime_s === health.uptime_s) return last.health;
    last = { probed, health };
    return health;
  };
}

function answerOf(
  app: FastifyInstance,
  { database, redis }: { database: ComponentHealth; redis: ComponentHealth | undefined },
): THealth {
  const up = database.status === "up" && (!redis || redis.status === "up");
  return {
    status: up ? "ok" : "degraded",
    version: app.appVersion,
    uptime_s: Math.round((Date.now() - started) / 1000),
    database,
    ...(redis ? { redis } : {}),
  };
}
