import { lazy, Suspense, useEffect, useRef } from "react";
import { Outlet, useLocation, useNavigationType } from "react-router";
import { NavigationTracker, useRouteLoop } from "../auth/navigation-tracker";
import { useAuth } from "../auth/use-auth";
import { ErrorBoundary } from "../components/error-boundary";
import { MAIN_CONTENT_ID, SkipLink } from "../components/skip-link";
import { PageSpinner } from "../components/spinner";
import { ToastHost } from "../components/toast/toast-host";
import { RouteErrorPage } from "../features/errors/route-error-page";
import { logger } from "../lib/telemetry/logger";
import { TelemetryTracker } from "../lib/telemetry/telemetry-tracker";

const AuthErrorPage = lazy(() =>
  import("../features/errors/auth-error-page").then((m) => ({ default: m.AuthErrorPage })),
);

/** Lazy pages render a moment after navigation, so a #hash target may not exist at first. */
const HASH_TARGET_WAIT_MS = 3_000;

function scrollToHash(hash: string): () => void {
  const id = decodeURIComponent(hash.slice(1));
  const startedAt = performance.now();
  let frame = 0;
  const attempt = () => {
    const target = document.getElementById(id);
    if (target) {
      target.scrollIntoView();
      return;
    }
    if (performance.now() - startedAt < HASH_TARGET_WAIT_MS) frame = requestAnimationFrame(attempt);
  };
  attempt();
  return () => cancelAnimationFrame(frame);
}

/**
 * Scroll and focus after navigation, as a full page load would do them: new pages start at the
 * top (or at their #hash), back/forward keeps the browser's own restoration, and focus moves to
 * the new page's main region so keyboard and screen-reader users start at the content.
 */
function NavigationEffects() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  const previousPath = useRef(pathname);

  useEffect(() => {
    const pathChanged = previousPath.current !== pathname;
    previousPath.current = pathname;
    if (pathChanged) document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
    if (hash) return scrollToHash(hash);
    if (pathChanged && navigationType !== "POP") window.scrollTo(0, 0);
    return undefined;
  }, [pathname, hash, navigationType]);

  return null;
}

/** Wraps every page: skip link first, then the layout chosen by the route table. */
export function RootLayout() {
  const { pathname } = useLocation();
  const looping = useRouteLoop();
  const { user } = useAuth();
  return (
    <>
      <SkipLink />
      <NavigationEffects />
      <NavigationTracker />
      <TelemetryTracker userId={user?.id} />
      {looping ? (
        <Suspense fallback={<PageSpinner />}>
          <AuthErrorPage />
        </Suspense>
      ) : (
        <ErrorBoundary
          resetKey={pathname}
          fallback={(error) => <RouteErrorPage error={error} />}
          onError={(error) => logger.error("Page failed to render", { error, pathname })}
        >
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      )}
      <ToastHost />
    </>
  );
}
