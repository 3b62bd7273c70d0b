import { Suspense, useEffect, useRef } from "react";
import { Outlet, ScrollRestoration, useLocation } from "react-router";
import { MAIN_CONTENT_ID, SkipLink } from "../components/skip-link";
import { PageSpinner } from "../components/spinner";
import { ToastHost } from "../components/toast/toast-host";

/**
 * After an in-app navigation, focus moves to the new page's main region so keyboard and
 * screen-reader users start at the content, as they would after a full page load.
 */
function FocusMainOnNavigate() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  }, [pathname]);
  return null;
}

/** Wraps every page: skip link first, then the layout chosen by the route table. */
export function RootLayout() {
  return (
    <>
      <SkipLink />
      <ScrollRestoration />
      <FocusMainOnNavigate />
      <Suspense fallback={<PageSpinner />}>
        <Outlet />
      </Suspense>
      <ToastHost />
    </>
  );
}
