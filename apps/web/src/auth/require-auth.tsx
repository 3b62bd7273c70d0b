import { PROTECTED_ROUTE_CHECK_DELAY_MS } from "@cohort/contracts";
import { type ReactNode, useEffect, useState } from "react";
import { Navigate, useLocation } from "react-router";
import { FullScreenSpinner } from "./full-screen-spinner";
import { useAuth } from "./use-auth";

/** Waits out the product limits' 100 ms initial check delay before a guard may decide. */
export function useInitialCheckDelay(): boolean {
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setPassed(true), PROTECTED_ROUTE_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
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
