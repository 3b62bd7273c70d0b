import type { TAuthProviders } from "@cohort/contracts";
import { AUTH_MESSAGES } from "@cohort/contracts";
import { toast } from "../components/toast/toast-store";
import { api } from "../lib/api/api";
import { isApiError } from "../lib/api/api-error";
import {
  getBrowserStorage,
  readStorage,
  removeStorageIfPresent,
  writeStorage,
} from "../lib/storage/browser-storage";
import { logger } from "../lib/telemetry/logger";

/** Spec §8 texts of the Google sign-in. */
export const GOOGLE_MESSAGES = {
  success: "Logged in with Google successfully!",
  failed: "Google login failed",
  notConfigured: AUTH_MESSAGES.googleNotConfigured,
  syncFailed: "Warning: Could not sync with backend. Some features may not work.",
} as const;

/**
 * sessionStorage key set just before the browser leaves for Google. The server-side flow ends
 * with a plain redirect to /dashboard, so this mark is how the app knows, on arrival, that the
 * sign-in it is looking at came from Google and deserves the success toast.
 */
export const GOOGLE_PENDING_KEY = "googleLoginPending";

export const GOOGLE_START_URL = "/api/auth/google";

export async function fetchAuthProviders(): Promise<TAuthProviders> {
  return api.get<TAuthProviders>("/auth/providers");
}

/** Starts Google sign-in in whichever way the server supports. */
export async function startGoogleSignIn(): Promise<void> {
  let providers: TAuthProviders;
  try {
    providers = await fetchAuthProviders();
  } catch (error) {
    logger.warn("Could not ask the server which sign-in providers it has", {
      code: isApiError(error) ? error.code : undefined,
    });
    toast({ title: GOOGLE_MESSAGES.failed, variant: "error" });
    return;
  }
  if (!providers.google) {
    toast({ title: GOOGLE_MESSAGES.notConfigured, variant: "error" });
    return;
  }
  if (providers.googleMode === "oidc") {
    writeStorage(getBrowserStorage("sessionStorage"), GOOGLE_PENDING_KEY, String(Date.now()));
    // The server rotates the CSRF secret when the sign-in completes: the cached token would
    // belong to the old one, so it goes now rather than failing on the first call back.
    api.clearCsrfToken();
    window.location.assign(GOOGLE_START_URL);
    return;
  }
  // Firebase popup sign-in needs the identity provider's web SDK, which this build does not
  // bundle; the server-side flow (GOOGLE_CLIENT_ID/SECRET) is the supported way.
  logger.warn("Google sign-in through the Firebase popup is not available in this build");
  toast({
    title: GOOGLE_MESSAGES.failed,
    description:
      "This Cohort server offers Google sign-in only through Firebase, which this app does not support yet.",
    variant: "error",
  });
}

/**
 * Called once the app knows the user is signed in: shows the Google success toast if this
 * sign-in came back from Google (the pending mark, or `?login=google`).
 */
export function announceGoogleSignIn(search: string): boolean {
  const session = getBrowserStorage("sessionStorage");
  const pending = readStorage(session, GOOGLE_PENDING_KEY) !== null;
  const flagged = new URLSearchParams(search).get("login") === "google";
  removeStorageIfPresent(session, GOOGLE_PENDING_KEY);
  if (!pending && !flagged) return false;
  toast({ title: GOOGLE_MESSAGES.success, variant: "success" });
  return true;
}

/** Called by the login page on `?error=google`. */
export function announceGoogleFailure(): void {
  removeStorageIfPresent(getBrowserStorage("sessionStorage"), GOOGLE_PENDING_KEY);
  toast({ title: GOOGLE_MESSAGES.failed, variant: "error" });
}
