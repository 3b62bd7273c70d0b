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

export const ZCsrfTokenResponse = z.object({ csrfToken: z.string() });
export type TCsrfTokenResponse = z.infer<typeof ZCsrfTokenResponse>;
