import { isRedactedKey, REDACTED, redactDeep } from "@cohort/contracts";
import type { FastifyRequest } from "fastify";
import { type DestinationStream, type Logger, pino, stdSerializers, stdTimeFunctions } from "pino";

/** Query-string values of redacted keys (e.g. `?token=`) never reach a log either. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (isRedactedKey(key)) {
      params.set(key, REDACTED);
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}

export function createLogger(level: string, stream?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "cohort" },
      timestamp: stdTimeFunctions.isoTime,
      // Spec §5: redact password, token, secret, api_key, apiKey, authorization at any depth.
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
