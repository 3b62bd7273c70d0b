import type { Metric } from "web-vitals";
import type { Analytics, PerformanceInput } from "./analytics";

/** How long after the load event the measuring library is fetched. */
export const WEB_VITALS_DELAY_MS = 3000;

function pageSettled(): Promise<void> {
  const loaded =
    document.readyState === "complete"
      ? Promise.resolve()
      : new Promise<void>((resolve) =>
          window.addEventListener("load", () => resolve(), { once: true }),
        );
  return loaded.then(
    () =>
      new Promise<void>((resolve) => {
        setTimeout(() => {
          if ("requestIdleCallback" in window)
            requestIdleCallback(() => resolve(), { timeout: 2000 });
          else resolve();
        }, WEB_VITALS_DELAY_MS);
      }),
  );
}

/** Navigation timings of this page load, in milliseconds from its start. */
function navigationTimings(): Pick<PerformanceInput, "domLoadTime" | "pageLoadTime"> {
  const [entry] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  if (!entry) return {};
  return {
    ...(entry.domContentLoadedEventEnd > 0 ? { domLoadTime: entry.domContentLoadedEventEnd } : {}),
    ...(entry.loadEventEnd > 0 ? { pageLoadTime: entry.loadEventEnd } : {}),
  };
}

/**
 * Web vitals (data model and API) through the `web-vitals` library: FCP and LCP also as events
 * (category Performance, action FCP or LCP, rounded value); the whole set as one performance
 * record when the page is first hidden, when the library has reported its final values.
 * `web-vitals` 4+ no longer measures FID: INP, its successor, is recorded as `inp`.
 */
export async function collectWebVitals(analytics: Analytics, pagePath: string): Promise<void> {
  // Loaded once the page has settled, not with the first screen: measuring must not make the
  // landing page heavier (its initial JavaScript budget, bench:api). The browser keeps the
  // paint, layout-shift and interaction entries for observers that arrive late (`buffered`),
  // so the library still sees them; a visit that ends before it loads sends no vitals.
  await pageSettled();
  const { onCLS, onFCP, onINP, onLCP, onTTFB } = await import("web-vitals");
  const values: PerformanceInput = { pagePath };
  const event = (action: "FCP" | "LCP") => (metric: Metric) => {
    analytics.trackEvent({ category: "Performance", action, value: Math.round(metric.value) });
  };
  onFCP((metric) => {
    values.fcp = metric.value;
    event("FCP")(metric);
  });
  onLCP((metric) => {
    values.lcp = metric.value;
    event("LCP")(metric);
  });
  onCLS((metric) => {
    values.cls = metric.value;
  });
  onINP((metric) => {
    values.inp = metric.value;
  });
  onTTFB((metric) => {
    values.ttfb = metric.value;
  });

  let reported = false;
  // Registered after the library's own listeners, so its final values are already in.
  document.addEventListener("visibilitychange", () => {
    if (reported || document.visibilityState !== "hidden") return;
    reported = true;
    analytics.trackPerformance({ ...values, ...navigationTimings() });
  });
}
