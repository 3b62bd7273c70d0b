import { FUNNEL_EVENT_CATEGORY, type TFunnelStep } from "@cohort/contracts";
import { getBrowserStorage } from "../storage/browser-storage";
import { type Analytics, createAnalytics } from "./analytics";
import { type LogShipper, startLogShipper } from "./log-shipper";
import { logger } from "./logger";
import { createTelemetryTransport } from "./transport";
import { collectWebVitals } from "./web-vitals";

function newId(): string {
  const cryptoApi = globalThis.crypto;
  if (typeof cryptoApi?.randomUUID === "function") return cryptoApi.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Do Not Track (`navigator.doNotTrack`, old `window.doNotTrack`) or Global Privacy Control. */
export function browserDeclinesTracking(): boolean {
  if (typeof navigator === "undefined") return true;
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  const win = window as Window & { doNotTrack?: string };
  return nav.globalPrivacyControl === true || nav.doNotTrack === "1" || win.doNotTrack === "1";
}

const transport = createTelemetryTransport({
  fetch: (input, init) => globalThis.fetch(input, init),
  sessionStorage: getBrowserStorage("sessionStorage"),
  randomId: newId,
});

/** Who is signed in, told by the auth store (lib/ does not import auth/). */
let signedInUserId: string | undefined;

/** The app's one analytics queue (page views, events, web vitals, session ends). */
export const analytics: Analytics = createAnalytics({
  transport,
  localStorage: getBrowserStorage("localStorage"),
  now: () => Date.now(),
  randomId: newId,
  browserDeclines: browserDeclinesTracking,
  userId: () => signedInUserId,
});

let shipper: LogShipper | null = null;

/**
 * Starts sending: the log shipper (at 50 entries, every 30 s, on errors, on unload), web vitals
 * and the unload hooks. Once per page load; later calls only update the signed-in user.
 */
export function startTelemetry(userId: string | undefined): void {
  signedInUserId = userId;
  if (shipper) return;
  shipper = startLogShipper({ logger, transport, isSignedIn: () => signedInUserId !== undefined });
  collectWebVitals(analytics, window.location.pathname).catch((error: unknown) =>
    logger.warn("Web vitals could not be measured", {
      cause: error instanceof Error ? error.message : String(error),
    }),
  );
  window.addEventListener("pagehide", () => {
    analytics.endSession();
    shipper?.flushOnUnload();
  });
}

/** A step of the admin's funnel (landing → sign-up → first run → purchase; decision 021). */
export function trackFunnelStep(step: Exclude<TFunnelStep, "landing">): void {
  analytics.trackEvent({ category: FUNNEL_EVENT_CATEGORY, action: step });
}
