import { type THealth, ZHealth } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createHealthCheck } from "./check-health";

export async function systemRoutes(app: FastifyInstance) {
  const checkHealth = createHealthCheck(app);
  // One answer serves every check within its second (createHealthCheck): checked against
  // the contract and serialised once, not by the route's serializer on every request.
  const serialized = new WeakMap<THealth, string>();
  app.withTypeProvider<ZodTypeProvider>().get(
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
}
