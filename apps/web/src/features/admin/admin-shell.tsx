import { Suspense } from "react";
import { Link, Outlet } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { Logo } from "../../components/logo";
import { MAIN_CONTENT_ID } from "../../components/skip-link";
import { PageSpinner } from "../../components/spinner";
import { useSignOut } from "../shell/use-sign-out";

/** The admin area's frame: who is signed in, a way back to the app, sign-out. */
export function AdminShell() {
  const { user } = useAuth();
  const { signOut, pending } = useSignOut("/admin/login");
  return (
    <div className="min-h-dvh bg-ink-50">
      <header className="border-b border-ink-800 bg-ink-950 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <div className="flex items-center gap-3">
            <Link to="/admin/dashboard" aria-label="Admin dashboard" className="rounded-lg">
              <Logo inverse />
            </Link>
            <Badge tone="inverse">Admin</Badge>
          </div>
          <div className="flex items-center gap-3 text-sm">
            <span className="hidden text-ink-300 sm:inline">{user?.email}</span>
            <Link to="/dashboard" className="rounded px-2 py-1 text-ink-200 hover:text-white">
              App
            </Link>
            <Button variant="inverse" size="sm" onClick={signOut} disabled={pending}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="outline-none">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
