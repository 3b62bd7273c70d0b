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

/**
 * A real round trip to each dependency on every call; concurrent health checks share the
 * probe in flight, so a burst of checks costs one query, not one each.
 */
const probeAll = singleFlight(async (app: FastifyInstance) => {
  const [database, redis] = await Promise.all([
    probe(app.db.kind, () => app.db.query("SELECT 1")),
    app.redis ? probe("redis", () => app.redis!.ping()) : Promise.resolve(undefined),
  ]);
  return { database, redis };
});

export async function checkHealth(app: FastifyInstance): Promise<THealth> {
  const { database, redis } = await probeAll(app);
  const up = database.status === "up" && (!redis || redis.status === "up");
  return {
    status: up ? "ok" : "degraded",
    version: app.appVersion,
    uptime_s: Math.round((Date.now() - started) / 1000),
    database,
    ...(redis ? { redis } : {}),
  };
}
