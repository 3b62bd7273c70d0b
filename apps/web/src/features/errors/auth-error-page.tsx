import { useEffect, useRef } from "react";
import { Button } from "../../components/button";
import { MAIN_CONTENT_ID } from "../../components/skip-link";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

/** Wipes both web storages and starts over on /login with a full page load. */
export function clearDataAndLogin(): void {
  for (const kind of ["localStorage", "sessionStorage"] as const) {
    try {
      window[kind].clear();
    } catch {
      // Storage that cannot be reached holds nothing to clear.
    }
  }
  window.location.assign("/login");
}

/** The route table: the full-screen page the route-loop detector shows. */
export function AuthErrorPage() {
  useDocumentMeta({ title: "Authentication Error", noindex: true });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      className="flex min-h-dvh items-center justify-center bg-ink-50 px-4 py-16 outline-none"
    >
      <div
        role="alert"
        className="w-full max-w-md rounded-2xl border border-red-200 bg-white p-8 text-center shadow-lg shadow-ink-900/5"
      >
        <div
          aria-hidden="true"
          className="mx-auto flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M12 8v5m0 3h.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />
          </svg>
        </div>
        <h1
          ref={heading}
          tabIndex={-1}
          className="mt-5 text-2xl font-bold tracking-tight text-ink-950 outline-none"
        >
          Authentication Error
        </h1>
        <p className="mt-3 text-ink-600">
          A redirect loop was detected. Please clear your browser data and try again.
        </p>
        <Button size="lg" className="mt-8 w-full" onClick={clearDataAndLogin}>
          Clear Data and Login
        </Button>
      </div>
    </main>
  );
}
