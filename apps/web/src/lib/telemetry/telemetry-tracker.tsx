import { useEffect } from "react";
import { useLocation } from "react-router";
import { browserPageContext, pageViewOf } from "./page-view";
import { analytics, startTelemetry } from "./telemetry";

/** Pages set their title in an effect, lazy pages a moment later: read it after they do. */
const TITLE_SETTLE_MS = 300;

/**
 * Mounted once at the root: starts telemetry and records a page view on every route change.
 * `userId` is the signed-in user's id, or undefined.
 */
export function TelemetryTracker({ userId }: { userId: string | undefined }) {
  const { pathname, search } = useLocation();

  useEffect(() => {
    startTelemetry(userId);
  }, [userId]);

  useEffect(() => {
    const timer = setTimeout(() => {
      analytics.trackPageView(pageViewOf(browserPageContext(pathname, search)));
    }, TITLE_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [pathname, search]);

  return null;
}
