import { matchAppRoute } from "@cohort/contracts";
import { ensureAuthResolved, getAuthSnapshot, subscribeAuth } from "./auth/auth-store";
import { prefetchAgreementStatus } from "./features/agreement/agreement-api";
import { prefetchSessionOpen } from "./features/chat/session-detail-api";
import { dropPrefetched } from "./lib/api/boot-prefetch";
import { getBrowserStorage, readStorage, STORAGE_KEYS } from "./lib/storage/browser-storage";
import { preloadRouteModules } from "./routes";

/**
 * The page load's first moves, before React renders anything (decision 080): the sign-in check,
 * the modules of the page in the address bar and — when this browser was signed in — the
 * agreement check, side by side instead of each waiting for the one before; an open session's
 * first read follows as soon as both checks let it, without waiting for any module or render.
 *
 * Nothing here shows anything: the guards still decide on the sign-in check's answer and the
 * agreement gate on its own, and the prefetched answers are dropped the moment the sign-in is
 * anything but the user the boot's check found.
 */
export function boot(pathname: string): void {
  let owner: string | null | undefined;
  let answered: (signedIn: boolean) => void = () => undefined;
  /** The sign-in check's answer: is someone signed in? */
  const signedIn = new Promise<boolean>((resolve) => {
    answered = resolve;
  });
  subscribeAuth(() => {
    const { status, user } = getAuthSnapshot();
    if (status === "loading") return;
    answered(status === "authenticated");
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
  const agreement = prefetchAgreementStatus();
  const sessionId = match.route.path === "/chat/:sessionId?" ? match.params.sessionId : undefined;
  if (!sessionId) return;
  // Asked for once the sign-in check and the agreement check (side by side) both let it.
  const allowed = Promise.all([signedIn, agreement]).then(
    ([user, status]) => user && !status.requiresAcceptance,
    () => false,
  );
  prefetchSessionOpen(sessionId, allowed);
}
