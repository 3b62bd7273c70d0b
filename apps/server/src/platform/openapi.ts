import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** The public API takes personal access tokens only (never the sign-in cookie, no CSRF). */
const TOKEN_ROUTES = /^\/api\/(v1\/|mcp$)/;

/** OpenAPI generated from the same zod schemas that validate requests (docs/conventions.md). */
export async function registerOpenApi(app: FastifyInstance, version: string) {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Cohort API",
        version,
        description:
          "The Cohort API. Browsers authenticate with the sign-in cookie and send the CSRF token from GET /api/csrf-token in X-CSRF-Token on every POST, PUT, PATCH and DELETE; API clients send `Authorization: Bearer <token>` instead. Every error is `{ error: { code, message, details? } }`.\n\n**Public API.** Your own code calls `/api/v1` (OpenAI-compatible: the official `openai` SDKs work with `baseURL` `<origin>/api/v1`) and the MCP server at `/api/mcp` with a personal access token (`cohort_pat_…`, created in Settings → Access tokens) as `Authorization: Bearer`. `/api/v1` answers errors in OpenAI's shape. Guides with copy-paste examples: [/api](/api).",
      },
      tags: [
        {
          name: "openai-compatible",
          description:
            "OpenAI-compatible endpoints for the official `openai` SDKs. The model `cohort-team` runs the whole agent team (plan, agents, Critic, answer) and adds a `cohort` field with the run's plan, costs and score. Access token required (`chat` scope for completions).",
        },
        {
          name: "mcp",
          description:
            "The Model Context Protocol server (streamable HTTP, stateless): POST JSON-RPC to /api/mcp with an access token; tools run_team (with progress notifications), list_sessions, get_session, search_documents. Point an MCP client at it: see /api.",
        },
      ],
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          csrf: { type: "apiKey", in: "header", name: "X-CSRF-Token" },
        },
      },
    },
    transform: (input) => {
      const output = jsonSchemaTransform(input);
      if (!TOKEN_ROUTES.test(input.url)) return output;
      return { ...output, schema: { ...output.schema, security: [{ bearer: [] }] } };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    uiConfig: { docExpansion: "list", deepLinking: true },
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
