import { z } from "zod";

export const ZComponentHealth = z.object({
  status: z.enum(["up", "down"]),
  kind: z.string(),
  latency_ms: z.number().nullable(),
  error: z.string().optional(),
});

export const ZHealth = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  uptime_s: z.number(),
  database: ZComponentHealth,
  redis: ZComponentHealth.optional(),
});
export type THealth = z.infer<typeof ZHealth>;

/** Liveness: the process answers. A load balancer restarts on this, never on a dependency. */
export const ZLiveness = z.object({ status: z.literal("ok"), uptime_s: z.number() });
export type TLiveness = z.infer<typeof ZLiveness>;

/**
 * Readiness: whether this instance should get traffic. Ready (200) while the database is up;
 * Redis down makes it "degraded" but still ready (runs and events are stored first, and
 * cross-instance delivery resumes when Redis returns); the database down, or the instance
 * draining before it stops, → 503.
 */
export const ZReadiness = ZHealth.extend({
  ready: z.boolean(),
  /** The instance is shutting down: no new traffic, running work finishes. */
  draining: z.boolean(),
});
export type TReadiness = z.infer<typeof ZReadiness>;

export const ZCsrfTokenResponse = z.object({ csrfToken: z.string() });
export type TCsrfTokenResponse = z.infer<typeof ZCsrfTokenResponse>;
