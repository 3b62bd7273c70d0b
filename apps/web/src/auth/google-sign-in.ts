import {
  AUTH_MESSAGES,
  SIGN_IN_PROVIDER_LABELS,
  type TAuthProviders,
  type TAuthResponse,
  type TFirebaseClientConfig,
  type TSignInProvider,
} from "@cohort/contracts";
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
import { failureMessage } from "./account-api";
import { applyAuthResponse } from "./auth-store";

/** The exact error texts of the Google sign-in. */
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

/** Starts sign-in with a provider in whichever way the server supports. */
export async function startGoogleSignIn(provider: TSignInProvider = "google"): Promise<void> {
  let providers: TAuthProviders;
  try {
    providers = await fetchAuthProviders();
  } catch (error) {
    logger.warn("Could not ask the server which sign-in providers it has", {
      code: isApiError(error) ? error.code : undefined,
    });
    toast({ title: failedTitle(provider), variant: "error" });
    return;
  }
  if (providers.firebase?.providers.includes(provider)) {
    await signInThroughFirebase(providers.firebase, provider);
    return;
  }
  if (provider === "google" && providers.googleMode === "oidc") {
    writeStorage(getBrowserStorage("sessionStorage"), GOOGLE_PENDING_KEY, String(Date.now()));
    // The server rotates the CSRF secret when the sign-in completes: the cached token would
    // belong to the old one, so it goes now rather than failing on the first call back.
    api.clearCsrfToken();
    window.location.assign(GOOGLE_START_URL);
    return;
  }
  toast({ title: GOOGLE_MESSAGES.notConfigured, variant: "error" });
}

function failedTitle(provider: TSignInProvider): string {
  return provider === "google"
    ? GOOGLE_MESSAGES.failed
    : `${SIGN_IN_PROVIDER_LABELS[provider]} login failed`;
}

function successTitle(provider: TSignInProvider): string {
  return provider === "google"
    ? GOOGLE_MESSAGES.success
    : `Logged in with ${SIGN_IN_PROVIDER_LABELS[provider]} successfully!`;
}

/**
 * The flow: the provider's popup, then POST /auth/register with the sync payload and the
 * ID token that proves it; the server's reply signs the browser in like any sign-in.
 */
async function signInThroughFirebase(
  config: TFirebaseClientConfig,
  provider: TSignInProvider,
): Promise<void> {
  const { signInWithPopup, isPopupDismissed, popupFailureDetail, firebaseErrorCode } = await import(
    "./firebase-popup"
  );
  let popup: Awaited<ReturnType<typeof signInWithPopup>>;
  try {
    popup = await signInWithPopup(config, provider);
  } catch (error) {
    if (isPopupDismissed(error)) return;
    logger.warn("Identity provider sign-in failed", { provider, code: firebaseErrorCode(error) });
    const detail = popupFailureDetail(error, provider);
    toast({
      title: failedTitle(provider),
      ...(detail ? { description: detail } : {}),
      variant: "error",
    });
    return;
  }
  let response: TAuthResponse;
  try {
    response = await api.post<TAuthResponse>("/auth/register", {
      uid: popup.uid,
      email: popup.email ?? "",
      displayName: popup.displayName,
      photoURL: popup.photoURL,
      idToken: popup.idToken,
    });
  } catch (error) {
    logger.warn("The identity provider sign-in could not be synced with the server", {
      provider,
      code: isApiError(error) ? error.code : undefined,
    });
    const detail = failureMessage(error, "");
    toast({
      title: GOOGLE_MESSAGES.syncFailed,
      ...(detail ? { description: detail } : {}),
      variant: "error",
    });
    return;
  }
  toast({ title: successTitle(provider), variant: "success" });
  applyAuthResponse(response);
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
