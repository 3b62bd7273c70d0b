import { isNavLinkActive } from "@cohort/contracts";
import { Suspense } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { useSignOut } from "../../auth/use-sign-out";
import { Badge } from "../../components/badge";
import { Button } from "../../components/button";
import { Logo } from "../../components/logo";
import { MAIN_CONTENT_ID } from "../../components/skip-link";
import { PageSpinner } from "../../components/spinner";

const NAV = [
  { to: "/admin/dashboard", label: "Overview" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/workspaces", label: "Workspaces" },
  { to: "/admin/agreements", label: "Agreements" },
  { to: "/admin/models", label: "Models" },
  { to: "/admin/logs", label: "Logs" },
  { to: "/admin/analytics", label: "Analytics" },
  { to: "/admin/outbox", label: "Outbox" },
  { to: "/admin/audit", label: "Audit log" },
] as const;

/** The admin area's sections; a user's page counts as Users. */
function AdminNav() {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Admin" className="border-b border-ink-200 bg-white">
      <ul className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-4 sm:px-6">
        {NAV.map((item) => {
          const active = isNavLinkActive(item.to, pathname);
          return (
            <li key={item.to}>
              <NavLink
                to={item.to}
                aria-current={active ? "page" : undefined}
                className={
                  active
                    ? "block border-b-2 border-brand-600 px-3 py-3 text-sm font-semibold whitespace-nowrap text-ink-950"
                    : "block border-b-2 border-transparent px-3 py-3 text-sm whitespace-nowrap text-ink-600 hover:text-ink-950"
                }
              >
                {item.label}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The admin area's frame: who is signed in, its sections, a way back to the app, sign-out. */
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
      <AdminNav />
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="outline-none">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
