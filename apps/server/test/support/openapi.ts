import type { FastifyInstance } from "fastify";
import type { JsonSchema } from "./json-schema-arbitrary";

/** One route of the app's OpenAPI document, as the generated tests walk them. */
export interface Operation {
  method: string;
  /** OpenAPI's form: `/api/sessions/{id}`. */
  path: string;
  parameters?: { in: "path" | "query" | "header"; name: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/**
 * Every operation the app publishes: tests that enumerate routes from here cover a route
 * added tomorrow without new test code.
 */
export async function listOperations(app: FastifyInstance): Promise<Operation[]> {
  const response = await app.inject({ method: "GET", url: "/api/openapi.json" });
  const document = response.json() as {
    paths: Record<string, Record<string, Omit<Operation, "method" | "path">>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
}

/** The JSON body schema of an operation, if it takes one. */
export function bodySchemaOf(op: Operation): JsonSchema | undefined {
  return op.requestBody?.content?.["application/json"]?.schema;
}
