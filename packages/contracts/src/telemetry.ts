import { z } from "zod";

/**
 * Client telemetry (the data model, the API and the product limits): log entries, page views, events, web vitals and
 * session ends sent by the web app, and the admin's read views over what was stored
 * (docs/decisions/021-telemetry.md).
 */

/** The most entries one POST /api/logs may carry; the client sends at most 50 at a time. */
export const LOG_BATCH_MAX_ENTRIES = 100;
/** The most analytics items one POST /api/analytics/* may carry. */
export const ANALYTICS_BATCH_MAX_ITEMS = 50;
/** The largest one entry may be once serialised as JSON (message, data and all). */
export const TELEMETRY_MAX_ENTRY_BYTES = 8_192;
/** Request header the web sends with its realtime session id, for log correlation. */
export const CLIENT_SESSION_HEADER = "x-client-session-id";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export const ZLogLevel = z.enum(LOG_LEVELS);
export type TLogLevel = z.infer<typeof ZLogLevel>;

const shortText = (max: number) => z.string().max(max);
const id = shortText(128);

/** UTF-8 length of a string, without TextEncoder (contracts run on no particular runtime). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** The longest JSON a number serialises to (`-2.2250738585072014e-308`). */
const NUMBER_JSON_MAX = 24;
/** A UTF-16 unit is at most 6 bytes of JSON: `\u001f` (or a lone surrogate's escape). */
const UNIT_JSON_MAX = 6;

/**
 * An upper bound of the UTF-8 bytes of `JSON.stringify(value)`, found without serialising,
 * or Infinity once it passes `limit` or meets anything but plain JSON data (a Date, a
 * `toJSON`): the caller then measures exactly. Stopping at `limit` also bounds the depth.
 */
export function jsonBytesBound(value: unknown, limit: number): number {
  switch (typeof value) {
    case "string":
      return value.length * UNIT_JSON_MAX + 2;
    case "number":
      return NUMBER_JSON_MAX;
    case "boolean":
      return 5;
    case "undefined":
      return 4;
    case "object":
      break;
    default:
      return Number.POSITIVE_INFINITY;
  }
  if (value === null) return 4;
  const proto = Object.getPrototypeOf(value);
  if (
    (proto !== Object.prototype && proto !== null && proto !== Array.prototype) ||
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  ) {
    return Number.POSITIVE_INFINITY;
  }
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      bytes += jsonBytesBound(item, limit - bytes) + 1;
      if (bytes > limit) return Number.POSITIVE_INFINITY;
    }
    return bytes;
  }
  for (const key in value) {
    bytes +=
      key.length * UNIT_JSON_MAX +
      4 +
      jsonBytesBound((value as Record<string, unknown>)[key], limit - bytes);
    if (bytes > limit) return Number.POSITIVE_INFINITY;
  }
  return bytes;
}

/** Whether `value`'s JSON form is at most `limit` bytes of UTF-8. */
export function fitsJsonBytes(value: unknown, limit: number): boolean {
  // Most entries are far below the cap: the bound answers without serialising them.
  if (jsonBytesBound(value, limit) <= limit) return true;
  const json = JSON.stringify(value) ?? "";
  // A UTF-16 unit is at most 3 bytes of UTF-8: most of the rest need no counting at all.
  return json.length * 3 <= limit || utf8Bytes(json) <= limit;
}

/** Refuses an item whose JSON form is larger than TELEMETRY_MAX_ENTRY_BYTES. */
function capBytes<T extends z.ZodType>(schema: T) {
  return schema.refine((value) => fitsJsonBytes(value, TELEMETRY_MAX_ENTRY_BYTES), {
    message: `An entry may be at most ${TELEMETRY_MAX_ENTRY_BYTES} bytes of JSON`,
  });
}

/** The data model "Log entry", plus the request id of the API call it is about, when there is one. */
export const ZClientLogEntry = capBytes(
  z.object({
    timestamp: z.iso.datetime({ offset: true }),
    level: ZLogLevel,
    message: shortText(2_000),
    data: z.unknown().optional(),
    url: shortText(2_048).optional(),
    userAgent: shortText(512).optional(),
    userId: id.optional(),
    sessionId: id.optional(),
    requestId: id.optional(),
  }),
);
export type TClientLogEntry = z.infer<typeof ZClientLogEntry>;

export const ZLogBatch = z.object({
  logs: z.array(ZClientLogEntry).min(1).max(LOG_BATCH_MAX_ENTRIES),
});
export type TLogBatch = z.infer<typeof ZLogBatch>;

export const ZTelemetryAccepted = z.object({
  /** How many items were queued for storage; 0 when the caller opted out of analytics. */
  accepted: z.number().int(),
});
export type TTelemetryAccepted = z.infer<typeof ZTelemetryAccepted>;

export const ZUtmParams = z.object({
  source: shortText(256).optional(),
  medium: shortText(256).optional(),
  campaign: shortText(256).optional(),
  term: shortText(256).optional(),
  content: shortText(256).optional(),
});
export type TUtmParams = z.infer<typeof ZUtmParams>;

export const ZDeviceInfo = z.object({
  userAgent: shortText(512).optional(),
  platform: shortText(128).optional(),
  language: shortText(64).optional(),
  deviceType: z.enum(["mobile", "tablet", "desktop"]).optional(),
});
export type TDeviceInfo = z.infer<typeof ZDeviceInfo>;

export const ZScreenInfo = z.object({
  width: z.number().int().min(0).max(100_000),
  height: z.number().int().min(0).max(100_000),
  pixelRatio: z.number().min(0).max(100).optional(),
  viewportWidth: z.number().int().min(0).max(100_000).optional(),
  viewportHeight: z.number().int().min(0).max(100_000).optional(),
});
export type TScreenInfo = z.infer<typeof ZScreenInfo>;

/** The data model "Page view", with the analytics session it belongs to. */
export const ZPageView = capBytes(
  z.object({
    /** Not in the data model's entity: optional, so the spec's payload is taken as it is. */
    sessionId: id.optional(),
    userId: id.optional(),
    pagePath: shortText(2_048),
    pageTitle: shortText(512),
    referrer: shortText(2_048),
    utmParams: ZUtmParams,
    deviceInfo: ZDeviceInfo,
    screenInfo: ZScreenInfo,
  }),
);
export type TPageView = z.infer<typeof ZPageView>;

/**
 * An event's free-form properties, bounded one by one (decision 052): a page needs a few short
 * facts, not a store for anyone's kilobytes.
 */
export const ANALYTICS_PROPERTIES_MAX = 20;
export const ANALYTICS_PROPERTY_KEY_MAX = 40;
export const ANALYTICS_PROPERTY_VALUE_MAX = 200;
export const ZAnalyticsProperties = z
  .record(
    z.string().min(1).max(ANALYTICS_PROPERTY_KEY_MAX),
    z.union([
      z.string().max(ANALYTICS_PROPERTY_VALUE_MAX),
      z.number().finite(),
      z.boolean(),
      z.null(),
    ]),
  )
  .refine((value) => Object.keys(value).length <= ANALYTICS_PROPERTIES_MAX, {
    message: `At most ${ANALYTICS_PROPERTIES_MAX} properties`,
  });

/** The data model "Analytics event". */
export const ZAnalyticsEvent = capBytes(
  z.object({
    sessionId: id,
    userId: id.optional(),
    category: shortText(64).min(1),
    action: shortText(64).min(1),
    label: shortText(256).optional(),
    value: z.number().finite().optional(),
    properties: ZAnalyticsProperties.optional(),
  }),
);
export type TAnalyticsEvent = z.infer<typeof ZAnalyticsEvent>;

const metric = z.number().finite().min(0).max(3_600_000).optional();

/**
 * The data model "Performance data" (milliseconds; cls unitless), for one page. Browsers that no
 * longer report FID send `inp` instead, recorded under its own name (decision 021).
 */
export const ZPerformanceData = capBytes(
  z.object({
    /** Not in the data model's entity: optional, so the spec's payload is taken as it is. */
    sessionId: id.optional(),
    userId: id.optional(),
    pagePath: shortText(2_048).optional(),
    lcp: metric,
    fid: metric,
    inp: metric,
    cls: z.number().finite().min(0).max(1_000).optional(),
    ttfb: metric,
    fcp: metric,
    domLoadTime: metric,
    pageLoadTime: metric,
  }),
);
export type TPerformanceData = z.infer<typeof ZPerformanceData>;

/** The data model "Session end: duration in seconds". */
export const ZSessionEnd = z.object({
  /** Not in the data model's entity ("duration in seconds"): optional. */
  sessionId: id.optional(),
  userId: id.optional(),
  duration: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600),
});
export type TSessionEnd = z.infer<typeof ZSessionEnd>;

/** Each analytics endpoint takes one item (the API) or a batch of them (the client's queue). */
function oneOrMany<T extends z.ZodType>(item: T) {
  return z.union([item, z.array(item).min(1).max(ANALYTICS_BATCH_MAX_ITEMS)]);
}
export const ZPageViewBody = oneOrMany(ZPageView);
export const ZAnalyticsEventBody = oneOrMany(ZAnalyticsEvent);
export const ZPerformanceBody = oneOrMany(ZPerformanceData);
export const ZSessionEndBody = oneOrMany(ZSessionEnd);

/** The signed-in user's analytics choice (Settings); Do Not Track / GPC apply on top. */
export const ZTelemetryPreferences = z.object({ analyticsOptOut: z.boolean() });
export type TTelemetryPreferences = z.infer<typeof ZTelemetryPreferences>;

// --- Admin read views (the admin module serves these; the telemetry module answers them) ---

export const ZLogSource = z.enum(["client", "server"]);
export type TLogSource = z.infer<typeof ZLogSource>;

export const ZLogEntriesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  level: ZLogLevel.optional(),
  source: ZLogSource.optional(),
  userId: z.uuid().optional(),
  sessionId: id.optional(),
  requestId: id.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type TLogEntriesQuery = z.infer<typeof ZLogEntriesQuery>;

export const ZStoredLogEntry = z.object({
  id: z.string(),
  source: ZLogSource,
  level: ZLogLevel,
  message: z.string(),
  data: z.unknown().nullable(),
  url: z.string().nullable(),
  userAgent: z.string().nullable(),
  userId: z.string().nullable(),
  sessionId: z.string().nullable(),
  requestId: z.string().nullable(),
  /** The truncated address (/24 for IPv4, /48 for IPv6) the entry came from; null for server lines. */
  ip: z.string().nullable(),
  /** When the client (or server) wrote the line. */
  timestamp: z.string(),
  receivedAt: z.string(),
});
export type TStoredLogEntry = z.infer<typeof ZStoredLogEntry>;

export const ZLogEntriesResponse = z.object({
  entries: z.array(ZStoredLogEntry),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type TLogEntriesResponse = z.infer<typeof ZLogEntriesResponse>;

/** One request's whole trail: client entries and server lines sharing its id, oldest first. */
export const ZRequestTrail = z.object({
  requestId: z.string(),
  entries: z.array(ZStoredLogEntry),
});
export type TRequestTrail = z.infer<typeof ZRequestTrail>;

export const ZAnalyticsSummaryQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
export type TAnalyticsSummaryQuery = z.infer<typeof ZAnalyticsSummaryQuery>;

const ZCount = z.object({ key: z.string(), count: z.number().int() });

/** The funnel's steps, in order (decision 021 says how each is counted). */
export const FUNNEL_STEPS = ["landing", "sign_up", "first_run", "purchase"] as const;
export const ZFunnelStep = z.enum(FUNNEL_STEPS);
export type TFunnelStep = z.infer<typeof ZFunnelStep>;
/** The analytics event category the web app records funnel steps under. */
export const FUNNEL_EVENT_CATEGORY = "Funnel";

export const ZWebVitalsP75 = z.object({
  pagePath: z.string(),
  samples: z.number().int(),
  lcp: z.number().nullable(),
  fid: z.number().nullable(),
  inp: z.number().nullable(),
  cls: z.number().nullable(),
  ttfb: z.number().nullable(),
  fcp: z.number().nullable(),
});
export type TWebVitalsP75 = z.infer<typeof ZWebVitalsP75>;

export const ZAnalyticsSummary = z.object({
  from: z.string(),
  to: z.string(),
  pageViews: z.number().int(),
  sessions: z.number().int(),
  topPages: z.array(ZCount),
  referrers: z.array(ZCount),
  utmSources: z.array(ZCount),
  /**
   * Each step a subset of the one before: sessions that viewed the landing page, those of them
   * that signed up, then (by user) those who started a run, then those who bought.
   */
  funnel: z.array(z.object({ step: ZFunnelStep, count: z.number().int() })),
  webVitals: z.array(ZWebVitalsP75),
});
export type TAnalyticsSummary = z.infer<typeof ZAnalyticsSummary>;
