import { ZHealth } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { createHealthCheck } from "./check-health";

export async function systemRoutes(app: FastifyInstance) {
  const checkHealth = createHealthCheck(app);
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
      reply.header("cache-control", "no-store");
      return reply.status(health.status === "ok" ? 200 : 503).send(health);
    },
  );
}
