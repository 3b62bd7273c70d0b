import { Suspense } from "react";
import { Outlet } from "react-router";
import { MAIN_CONTENT_ID } from "../components/skip-link";
import { PageSpinner } from "../components/spinner";

/** No navigation chrome: for sign-in flows and diagnostic pages that own the whole screen. */
export function PlainLayout() {
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1} className="min-h-dvh outline-none">
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
    </main>
  );
}
