import type { TUserResponse } from "@cohort/contracts";
import { useEffect, useState } from "react";
import { MAIN_CONTENT_ID } from "../../components/skip-link";
import { api } from "../../lib/api/api";
import { isApiError } from "../../lib/api/api-error";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";

type Check =
  | { state: "checking" }
  | { state: "signed-in"; email: string }
  | { state: "signed-out" }
  | { state: "error"; message: string };

/**
 * The sign-in check without the router or the shared auth state: one direct call to
 * GET /api/users/profile and plain links, to tell a routing problem from an auth problem.
 */
export function NoRouterAuthPage() {
  useDocumentMeta({ title: "Auth without the router", noindex: true });
  const [check, setCheck] = useState<Check>({ state: "checking" });

  useEffect(() => {
    const controller = new AbortController();
    api
      .get<TUserResponse>("/users/profile", {
        signal: controller.signal,
        redirectOnUnauthorized: false,
      })
      .then(
        ({ user }) => setCheck({ state: "signed-in", email: user.email }),
        (error: unknown) => {
          if (isApiError(error) && error.isAborted) return;
          if (isApiError(error) && error.status === 401) setCheck({ state: "signed-out" });
          else
            setCheck({
              state: "error",
              message: isApiError(error) ? error.message : String(error),
            });
        },
      );
    return () => controller.abort();
  }, []);

  return (
    <div id={`${MAIN_CONTENT_ID}-no-router`} className="mx-auto max-w-2xl px-4 py-8 sm:px-6">
      <p className="text-xs font-semibold tracking-wide text-amber-700 uppercase">
        Diagnostics · not part of the product
      </p>
      <h1 className="mt-1 text-2xl font-bold tracking-tight text-ink-950">
        Auth without the router
      </h1>
      <p className="mt-2 text-sm text-ink-600">
        One direct call to <code>GET /api/users/profile</code>; the links below are plain page
        loads.
      </p>
      <p
        className="mt-6 rounded-xl border border-ink-200 bg-white p-4 text-sm"
        aria-live="polite"
        data-testid="no-router-status"
      >
        {check.state === "checking"
          ? "Checking…"
          : check.state === "signed-in"
            ? `Signed in as ${check.email}.`
            : check.state === "signed-out"
              ? "Not signed in (the server answered 401)."
              : `The check failed: ${check.message}`}
      </p>
      <ul className="mt-4 flex flex-wrap gap-4 text-sm">
        <li>
          <a href="/login" className="font-medium text-brand-700 hover:underline">
            Sign in
          </a>
        </li>
        <li>
          <a href="/dashboard" className="font-medium text-brand-700 hover:underline">
            Dashboard
          </a>
        </li>
        <li>
          <a href="/debug-auth" className="font-medium text-brand-700 hover:underline">
            Auth debug
          </a>
        </li>
      </ul>
    </div>
  );
}
