import { PROTECTED_ROUTE_CHECK_DELAY_MS } from "@cohort/contracts";
import { type ReactNode, useEffect, useState } from "react";
import { Navigate, useLocation } from "react-router";
import { FullScreenSpinner } from "./full-screen-spinner";
import { useAuth } from "./use-auth";

/** How much of the initial check delay is left: it counts from the page load (decision 080). */
function initialDelayLeft(): number {
  return Math.max(0, PROTECTED_ROUTE_CHECK_DELAY_MS - performance.now());
}

/**
 * Waits out the product limits' 100 ms initial check delay before a guard may decide. The
 * delay is the page load's first 100 ms, not 100 ms from the guard's own mount: a guard that
 * mounts later (its module loaded, the sign-in check already answered) decides at once.
 */
export function useInitialCheckDelay(): boolean {
  const [passed, setPassed] = useState(() => initialDelayLeft() === 0);
  useEffect(() => {
    if (passed) return undefined;
    const timer = setTimeout(() => setPassed(true), initialDelayLeft());
    return () => clearTimeout(timer);
  }, [passed]);
  return passed;
}

/**
 * Whether the router has rendered the address the browser is at. The router moves to a new
 * address in a transition, after the address bar; a sign-out (the auth store's update is not
 * one) can render first, with the page being left. A guard that redirected then would undo
 * the navigation under way: deleting the account goes to `/` and must stay there (decision 096).
 */
export function useRouterAtBrowserAddress(): boolean {
  const location = useLocation();
  return (
    window.location.pathname === location.pathname && window.location.search === location.search
  );
}

/** Protected routes (the route table): signed-out visitors go to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const delayPassed = useInitialCheckDelay();
  const location = useLocation();
  const settled = useRouterAtBrowserAddress();
  if (status === "loading" || !delayPassed) return <FullScreenSpinner />;
  // Signed out while leaving: the page under way decides, not this one.
  if (status !== "authenticated" && !settled) return <FullScreenSpinner />;
  if (status !== "authenticated") {
    // The query too: an invitation link (/dashboard?invite=…) must survive signing in.
    return (
      <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  }
  return children;
}
