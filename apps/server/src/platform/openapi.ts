import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** OpenAPI generated from the same zod schemas that validate requests (STYLE.md rule 3). */
export async function registerOpenApi(app: FastifyInstance, version: string) {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Cohort API",
        version,
        description:
          "The Cohort API. Browsers authenticate with the sign-in cookie and send the CSRF token from GET /api/csrf-token in X-CSRF-Token on every POST, PUT, PATCH and DELETE; API clients send `Authorization: Bearer <token>` instead. Every error is `{ error: { code, message, details? } }`.",
      },
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          csrf: { type: "apiKey", in: "header", name: "X-CSRF-Token" },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    uiConfig: { docExpansion: "list", deepLinking: true },
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
