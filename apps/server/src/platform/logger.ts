import { redactDeep, redactUrl } from "@cohort/contracts";
import type { FastifyRequest } from "fastify";
import { type DestinationStream, type Logger, pino, stdSerializers, stdTimeFunctions } from "pino";

/**
 * URLs in logs: token path segments (share links, invitations) and the query-string values of
 * redacted keys (e.g. `?token=`) never reach a log (decision 051).
 */
export { redactUrl };

export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "cohort" },
      timestamp: stdTimeFunctions.isoTime,
      // The validation rules: redact password, token, secret, api_key, apiKey, authorization at any depth
      // (and the keys decision 051 adds, and secrets inside strings).
      formatters: { log: (object) => redactDeep(object) as Record<string, unknown> },
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip,
        }),
        err: stdSerializers.err,
      },
    },
    stream,
  );
}
