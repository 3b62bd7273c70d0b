import { getBrowserStorage } from "../lib/storage/browser-storage";
import { logger } from "../lib/telemetry/logger";
import { guardLoginRedirect } from "./redirect-loop-guard";

/**
 * Asks the redirect-loop guard whether the login page may send a signed-in user to the
 * dashboard now. False means a loop was stopped and the stored sign-in state was cleared.
 */
export function mayRedirectToDashboard(): boolean {
  const verdict = guardLoginRedirect(
    { session: getBrowserStorage("sessionStorage"), local: getBrowserStorage("localStorage") },
    Date.now(),
  );
  if (!verdict.allowed) {
    logger.warn("Login redirect loop stopped", { redirects: verdict.state.count });
  }
  return verdict.allowed;
}
