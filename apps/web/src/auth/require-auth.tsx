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

/** Protected routes (the route table): signed-out visitors go to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const delayPassed = useInitialCheckDelay();
  const location = useLocation();
  if (status === "loading" || !delayPassed) return <FullScreenSpinner />;
  if (status !== "authenticated") {
    // The query too: an invitation link (/dashboard?invite=…) must survive signing in.
    return (
      <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  }
  return children;
}
