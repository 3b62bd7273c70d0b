import { ERROR_CODES } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { AppError } from "./errors";
import { findNul, isKnownNulFree } from "./nul";

const PARTS = ["params", "query", "body"] as const;

/**
 * Refuses a NUL character anywhere in a request's path parameters, query or JSON body, on
 * every route, before validation: one rule at the root instead of one per contract field,
 * so a route added tomorrow is covered too. The 400 names the field, in the same shape as
 * a validation failure.
 */
export function registerNulGuard(app: FastifyInstance): void {
  // Callback style, not async: a request without NUL, the common case, costs no promise.
  app.addHook("preValidation", (request, _reply, done) => {
    for (const part of PARTS) {
      if (part === "body" && isKnownNulFree(request.body)) continue;
      const path = findNul(request[part]);
      if (path === null) continue;
      const where = part === "params" ? "path" : part;
      return done(
        new AppError(
          ERROR_CODES.validationFailed,
          400,
          `The request ${where} is invalid: ${path} must not contain NUL characters (\\u0000)`,
          { issues: [{ path, message: "must not contain NUL characters (\\u0000)" }] },
        ),
      );
    }
    done();
  });
}
