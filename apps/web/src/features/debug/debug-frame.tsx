import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { cn } from "../../components/cn";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

const DEBUG_LINKS = [
  "/debug-auth",
  "/auth-debug",
  "/auth-debug-page",
  "/simple-auth",
  "/test-redirect",
  "/no-router-auth",
  "/isolated-auth",
  "/isolated-dashboard",
] as const;

/** The frame of the route table's debug and test routes: never indexed, linked to each other. */
export function DebugFrame({
  title,
  description,
  children,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  useDocumentMeta({ title, noindex: true });
  const { pathname } = useLocation();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
      <p className="text-xs font-semibold tracking-wide text-amber-700 uppercase">
        Diagnostics · not part of the product
      </p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-ink-950">{title}</h1>
      <div className="mt-2 text-sm text-ink-600">{description}</div>
      <nav aria-label="Debug pages" className="mt-4">
        <ul className="flex flex-wrap gap-2 text-xs">
          {DEBUG_LINKS.map((to) => (
            <li key={to}>
              <Link
                to={to}
                aria-current={pathname === to ? "page" : undefined}
                className={cn(
                  "rounded-md border px-2 py-1 font-mono",
                  pathname === to
                    ? "border-brand-300 bg-brand-50 text-brand-800"
                    : "border-ink-200 text-ink-700 hover:bg-ink-100",
                )}
              >
                {to}
              </Link>
            </li>
          ))}
          <li>
            <Link
              to="/login"
              className="rounded-md border border-ink-200 px-2 py-1 text-ink-700 hover:bg-ink-100"
            >
              Sign in
            </Link>
          </li>
          <li>
            <Link
              to="/dashboard"
              className="rounded-md border border-ink-200 px-2 py-1 text-ink-700 hover:bg-ink-100"
            >
              Dashboard
            </Link>
          </li>
        </ul>
      </nav>
      <div className="mt-6 grid gap-6">{children}</div>
    </div>
  );
}

export function DebugSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-ink-200 bg-white p-4 sm:p-5">
      <h2 className="text-sm font-semibold text-ink-950">{title}</h2>
      <div className="mt-3 text-sm text-ink-700">{children}</div>
    </section>
  );
}

export function KeyValueTable({
  rows,
  empty = "Nothing stored.",
}: {
  rows: { key: string; value: string }[];
  empty?: string;
}) {
  if (rows.length === 0) return <p className="text-ink-500">{empty}</p>;
  return (
    <dl className="grid gap-x-4 gap-y-1.5 sm:grid-cols-[12rem_minmax(0,1fr)]">
      {rows.map((row) => (
        <div key={row.key} className="contents">
          <dt className="font-mono text-xs font-semibold text-ink-800">{row.key}</dt>
          <dd className="font-mono text-xs break-all text-ink-600">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
