import {
  redactDeep,
  type TAnalyticsEvent,
  type TPageView,
  type TPerformanceData,
  type TSessionEnd,
} from "@cohort/contracts";
import { redactUrl } from "../../platform/logger";
import type { Sender } from "./record-client-logs";
import type { TelemetryQueue } from "./write-telemetry-batches";

/**
 * Analytics items to rows. The user is the session's, never the payload's `userId` (a page
 * cannot attribute its visits to someone else); anonymous visits store none.
 */
export function recordPageViews(
  queue: TelemetryQueue,
  views: readonly TPageView[],
  sender: Sender,
): boolean {
  return queue.push(
    "analytics_page_views",
    views.map((view) => ({
      analytics_session_id: view.sessionId ?? null,
      user_id: sender.userId,
      page_path: redactUrl(view.pagePath),
      page_title: view.pageTitle,
      referrer: redactUrl(view.referrer),
      utm_source: view.utmParams.source ?? null,
      utm_medium: view.utmParams.medium ?? null,
      utm_campaign: view.utmParams.campaign ?? null,
      utm_term: view.utmParams.term ?? null,
      utm_content: view.utmParams.content ?? null,
      device_info: view.deviceInfo,
      screen_info: view.screenInfo,
      ip: sender.ip,
    })),
  );
}

export function recordEvents(
  queue: TelemetryQueue,
  events: readonly TAnalyticsEvent[],
  sender: Sender,
): boolean {
  return queue.push(
    "analytics_events",
    events.map((event) => ({
      analytics_session_id: event.sessionId,
      user_id: sender.userId,
      category: event.category,
      action: event.action,
      label: event.label ?? null,
      value: event.value ?? null,
      properties: event.properties === undefined ? null : redactDeep(event.properties),
      ip: sender.ip,
    })),
  );
}

export function recordPerformance(
  queue: TelemetryQueue,
  samples: readonly TPerformanceData[],
  sender: Sender,
): boolean {
  return queue.push(
    "analytics_performance",
    samples.map((sample) => ({
      analytics_session_id: sample.sessionId ?? null,
      user_id: sender.userId,
      page_path: sample.pagePath === undefined ? null : redactUrl(sample.pagePath),
      lcp: sample.lcp ?? null,
      fid: sample.fid ?? null,
      inp: sample.inp ?? null,
      cls: sample.cls ?? null,
      ttfb: sample.ttfb ?? null,
      fcp: sample.fcp ?? null,
      dom_load_time: sample.domLoadTime ?? null,
      page_load_time: sample.pageLoadTime ?? null,
    })),
  );
}

export function recordSessionEnds(
  queue: TelemetryQueue,
  ends: readonly TSessionEnd[],
  sender: Sender,
): boolean {
  return queue.push(
    "analytics_session_ends",
    ends.map((end) => ({
      analytics_session_id: end.sessionId ?? null,
      user_id: sender.userId,
      duration_seconds: end.duration,
    })),
  );
}
