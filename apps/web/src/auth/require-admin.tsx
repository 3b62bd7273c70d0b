import type { ReactNode } from "react";
import { Navigate } from "react-router";
import { FullScreenSpinner } from "./full-screen-spinner";
import { useInitialCheckDelay, useRouterAtBrowserAddress } from "./require-auth";
import { useAuth } from "./use-auth";

/** The route table and the roles: /admin/dashboard needs an admin sign-in; everyone else goes to /admin/login. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status, user } = useAuth();
  const delayPassed = useInitialCheckDelay();
  const settled = useRouterAtBrowserAddress();
  if (status === "loading" || !delayPassed) return <FullScreenSpinner />;
  const allowed = status === "authenticated" && user?.role === "admin";
  // Signed out while leaving (require-auth.tsx): the page under way decides.
  if (!allowed && !settled) return <FullScreenSpinner />;
  if (status !== "authenticated" || user?.role !== "admin") {
    return <Navigate to="/admin/login" replace />;
  }
  return children;
}
