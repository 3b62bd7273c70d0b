import { matchAppRoute } from "@cohort/contracts";
import { ensureAuthResolved, getAuthSnapshot, subscribeAuth } from "./auth/auth-store";
import { prefetchAgreementStatus } from "./features/agreement/agreement-api";
import { prefetchSessionOpen } from "./features/chat/session-detail-api";
import { dropPrefetched } from "./lib/api/boot-prefetch";
import { getBrowserStorage, readStorage, STORAGE_KEYS } from "./lib/storage/browser-storage";
import { preloadRouteModules } from "./routes";

/**
 * The page load's first moves, before React renders anything (decision 080): the sign-in check,
 * the modules of the page in the address bar, and — when this browser was signed in — the
 * calls a signed-in page makes first (the agreement check; an open session's first read), all
 * side by side instead of each waiting for the one before.
 *
 * Nothing here shows anything: the guards still decide on the sign-in check's answer and the
 * agreement gate on its own, and the prefetched answers are dropped the moment the sign-in is
 * anything but the user the boot's check found.
 */
export function boot(pathname: string): void {
  let owner: string | null | undefined;
  subscribeAuth(() => {
    const { status, user } = getAuthSnapshot();
    if (status === "loading") return;
    if (owner === undefined && status === "authenticated" && user) {
      owner = user.id;
      return;
    }
    if (status !== "authenticated" || user?.id !== owner) {
      owner = null;
      dropPrefetched();
    }
  });
  ensureAuthResolved();
  preloadRouteModules(pathname);

  const match = matchAppRoute(pathname);
  const signedInBefore =
    readStorage(getBrowserStorage("localStorage"), STORAGE_KEYS.authToken) !== null;
  if (match?.route.access !== "protected" || !signedInBefore) return;
  prefetchAgreementStatus();
  const sessionId = match.route.path === "/chat/:sessionId?" ? match.params.sessionId : undefined;
  if (sessionId) prefetchSessionOpen(sessionId);
}
