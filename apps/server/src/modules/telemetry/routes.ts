import {
  ANALYTICS_BATCH_MAX_ITEMS,
  ERROR_CODES,
  LOG_BATCH_MAX_ENTRIES,
  TELEMETRY_MAX_ENTRY_BYTES,
  utf8Bytes,
  ZAnalyticsEventBody,
  ZLogBatch,
  ZPageViewBody,
  ZPerformanceBody,
  ZSessionEndBody,
  ZTelemetryAccepted,
  ZTelemetryPreferences,
} from "@cohort/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { currentPrincipal, requireUser } from "../../platform/auth";
import { AppError } from "../../platform/errors";
import type { ServerLineCapture } from "./capture-server-lines";
import { admitAnonymousAnalytics } from "./count-anonymous-analytics";
import { getTelemetryPreferences } from "./get-telemetry-preferences";
import {
  recordEvents,
  recordPageViews,
  recordPerformance,
  recordSessionEnds,
} from "./record-analytics";
import { recordClientLogs, type Sender } from "./record-client-logs";
import { setTelemetryPreferences } from "./set-telemetry-preferences";
import { startTelemetrySweeper } from "./sweep-expired-telemetry";
import { truncateIp } from "./truncate-ip";
import { createTelemetryQueue, type TelemetryQueue } from "./write-telemetry-batches";

declare module "fastify" {
  interface FastifyInstance {
    telemetry: {
      /** Resolves once everything accepted so far is written (tests; shutdown does it too). */
      flush(): Promise<void>;
    };
  }
}

const tags = ["telemetry"];
/** Room for the JSON around a full batch of maximum-size entries. */
const ENVELOPE_BYTES = 4_096;

/** Per signed-in user, else per address: one busy office behind a NAT is not one person. */
async function userOrIp(request: FastifyRequest): Promise<string> {
  const principal = await currentPrincipal(request);
  return principal ? `telemetry:user:${principal.user.id}` : `telemetry:ip:${request.ip}`;
}

/** Do Not Track or Global Privacy Control: the browser has said no to analytics. */
function declinesTracking(request: FastifyRequest): boolean {
  return request.headers.dnt === "1" || request.headers["sec-gpc"] === "1";
}

/** The write queue is full: nothing of the request was queued; a flush frees room within 1 s. */
function queueFull(): AppError {
  return new AppError(
    ERROR_CODES.unavailable,
    503,
    "Telemetry is busy. Please try again in a moment.",
    undefined,
    { "retry-after": "1" },
  );
}

type AnalyticsRecorder<T> = (queue: TelemetryQueue, items: readonly T[], sender: Sender) => boolean;

/**
 * POST /api/logs, /api/analytics/{pageview,event,performance,session-end} and the user's
 * analytics opt-out. Accepted items are queued and written in batches (write-telemetry-batches.ts);
 * the answer is 202 with how many were accepted. Decision 021.
 */
export function registerTelemetry(
  app: FastifyInstance,
  options: { serverLines: ServerLineCapture },
): void {
  const { telemetry } = app.config;
  const queue = createTelemetryQueue(app.db, {
    flushIntervalMs: telemetry.flushIntervalMs,
    batchSize: telemetry.batchSize,
    queueLimit: telemetry.queueLimit,
    log: app.log,
  });
  options.serverLines.attach(queue);
  app.decorate("telemetry", { flush: () => queue.flush() });
  const sweeper =
    telemetry.sweepIntervalMs > 0
      ? startTelemetrySweeper(app.db, {
          retentionDays: telemetry.retentionDays,
          intervalMs: telemetry.sweepIntervalMs,
          log: app.log,
        })
      : undefined;
  // preClose: everything accepted is written before the database closes (onClose).
  app.addHook("preClose", async () => {
    await sweeper?.stop();
    await queue.close();
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/logs",
    {
      bodyLimit: LOG_BATCH_MAX_ENTRIES * TELEMETRY_MAX_ENTRY_BYTES + ENVELOPE_BYTES,
      config: {
        rateLimit: {
          max: telemetry.logsPerMinute,
          timeWindow: 60_000,
          keyGenerator: userOrIp,
        },
      },
      schema: {
        tags,
        summary: "Store a batch of the signed-in user's client log entries (the API)",
        body: ZLogBatch,
        response: { 202: ZTelemetryAccepted },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      const sender = { userId: user.id, ip: truncateIp(request.ip) };
      if (!recordClientLogs(queue, request.body.logs, sender)) throw queueFull();
      return reply.status(202).send({ accepted: request.body.logs.length });
    },
  );

  function analyticsRoute<S extends z.ZodType, T>(
    path: string,
    summary: string,
    body: S,
    record: AnalyticsRecorder<T>,
  ): void {
    r.post(
      path,
      {
        bodyLimit: ANALYTICS_BATCH_MAX_ITEMS * TELEMETRY_MAX_ENTRY_BYTES + ENVELOPE_BYTES,
        config: {
          rateLimit: {
            max: telemetry.analyticsPerMinute,
            timeWindow: 60_000,
            keyGenerator: userOrIp,
          },
        },
        schema: { tags, summary, body, response: { 202: ZTelemetryAccepted } },
      },
      async (request, reply) => {
        const items = (Array.isArray(request.body) ? request.body : [request.body]) as T[];
        const principal = await currentPrincipal(request);
        const optedOut =
          declinesTracking(request) ||
          (principal !== null &&
            (await getTelemetryPreferences(app.db, principal.user.id)).analyticsOptOut);
        // Accepted and dropped alike answer 202: a page cannot learn more by probing.
        if (optedOut) return reply.status(202).send({ accepted: 0 });
        const sender = { userId: principal?.user.id ?? null, ip: truncateIp(request.ip) };
        // Anonymous senders share a daily byte budget per address; beyond it their items are
        // dropped (and counted for the admin), answered like any other (decision 052).
        if (principal === null) {
          const bytes = utf8Bytes(JSON.stringify(items));
          const ip = sender.ip ?? "unknown";
          const budget = telemetry.anonymousBytesPerDay;
          if (!(await admitAnonymousAnalytics(app.db, ip, items.length, bytes, budget))) {
            return reply.status(202).send({ accepted: 0 });
          }
        }
        if (!record(queue, items, sender)) throw queueFull();
        return reply.status(202).send({ accepted: items.length });
      },
    );
  }

  analyticsRoute(
    "/api/analytics/pageview",
    "Record page views (anonymous visits too)",
    ZPageViewBody,
    recordPageViews,
  );
  analyticsRoute(
    "/api/analytics/event",
    "Record analytics events",
    ZAnalyticsEventBody,
    recordEvents,
  );
  analyticsRoute(
    "/api/analytics/performance",
    "Record web vitals of a page",
    ZPerformanceBody,
    recordPerformance,
  );
  analyticsRoute(
    "/api/analytics/session-end",
    "Record the end of an analytics session with its duration in seconds",
    ZSessionEndBody,
    recordSessionEnds,
  );

  r.get(
    "/api/telemetry/preferences",
    {
      schema: {
        tags,
        summary: "The signed-in user's analytics choice",
        response: { 200: ZTelemetryPreferences },
      },
    },
    async (request, reply) => {
      const { user } = await requireUser(request);
      reply.header("cache-control", "no-store");
      return getTelemetryPreferences(app.db, user.id);
    },
  );

  r.put(
    "/api/telemetry/preferences",
    {
      schema: {
        tags,
        summary: "Opt out of (or back into) analytics; error logs are kept for support",
        body: ZTelemetryPreferences,
        response: { 200: ZTelemetryPreferences },
      },
    },
    async (request) => {
      const { user } = await requireUser(request);
      return setTelemetryPreferences(app.db, user.id, request.body);
    },
  );
}
