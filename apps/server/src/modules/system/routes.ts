import { type THealth, ZHealth, ZLiveness, ZReadiness } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createHealthCheck } from "./check-health";

const started = Date.now();

export async function systemRoutes(app: FastifyInstance) {
  const checkHealth = createHealthCheck(app);
  // One answer serves every check within its second (createHealthCheck): checked against
  // the contract and serialised once, not by the route's serializer on every request.
  const serialized = new WeakMap<THealth, string>();
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    "/api/health",
    {
      schema: {
        tags: ["platform"],
        summary: "Database (and Redis) state; 503 when a dependency is down",
        response: { 200: ZHealth, 503: ZHealth },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth();
      let json = serialized.get(health);
      if (json === undefined) {
        json = JSON.stringify(ZHealth.parse(health));
        serialized.set(health, json);
      }
      const body = json;
      reply.header("cache-control", "no-store");
      reply.header("content-type", "application/json; charset=utf-8");
      return reply
        .status(health.status === "ok" ? 200 : 503)
        .serializer(() => body)
        .send(health);
    },
  );
  typed.get(
    "/api/health/live",
    {
      schema: {
        tags: ["platform"],
        summary: "Liveness: the process answers (no dependency is checked)",
        response: { 200: ZLiveness },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return { status: "ok" as const, uptime_s: Math.round((Date.now() - started) / 1000) };
    },
  );
  typed.get(
    "/api/health/ready",
    {
      schema: {
        tags: ["platform"],
        summary:
          "Readiness for a load balancer: 200 while the database is up (Redis down is degraded but ready); 503 when it is down or the instance drains",
        response: { 200: ZReadiness, 503: ZReadiness },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth();
      const { draining } = app.lifecycle;
      const ready = health.database.status === "up" && !draining;
      reply.header("cache-control", "no-store");
      return reply.status(ready ? 200 : 503).send({ ...health, ready, draining });
    },
  );
}
