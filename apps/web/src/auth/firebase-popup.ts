import {
  SIGN_IN_PROVIDER_LABELS,
  type TFirebaseClientConfig,
  type TSignInProvider,
} from "@cohort/contracts";

/**
 * The identity provider's popup (the API: Firebase Authentication, with Google, GitHub,
 * Facebook and X). The SDK is imported here only, and this module only from the login screen
 * and Settings, so the landing page never loads it. Firebase keeps no sign-in of its own
 * (in-memory persistence): once the server has verified the ID token, Cohort's sign-in cookie
 * is the only one, and signing out of Cohort leaves nothing behind in the browser.
 */

export interface PopupResult {
  uid: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
  idToken: string;
}

type Loaded = {
  auth: import("@firebase/auth").Auth;
  sdk: typeof import("@firebase/auth");
};

let loading: { key: string; promise: Promise<Loaded> } | null = null;

function load(config: TFirebaseClientConfig): Promise<Loaded> {
  const key = JSON.stringify(config);
  if (loading?.key === key) return loading.promise;
  const promise = (async () => {
    const [{ initializeApp, getApps, deleteApp }, sdk] = await Promise.all([
      import("@firebase/app"),
      import("@firebase/auth"),
    ]);
    // A changed configuration (another deployment behind the same origin) starts afresh.
    await Promise.all(getApps().map((app) => deleteApp(app)));
    const app = initializeApp({
      apiKey: config.apiKey,
      authDomain: config.authDomain,
      projectId: config.projectId,
      ...(config.storageBucket ? { storageBucket: config.storageBucket } : {}),
      ...(config.messagingSenderId ? { messagingSenderId: config.messagingSenderId } : {}),
      ...(config.appId ? { appId: config.appId } : {}),
    });
    const auth = sdk.initializeAuth(app, {
      persistence: sdk.inMemoryPersistence,
      popupRedirectResolver: sdk.browserPopupRedirectResolver,
    });
    if (config.emulatorUrl)
      sdk.connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
    return { auth, sdk };
  })();
  loading = { key, promise };
  promise.catch(() => {
    if (loading?.promise === promise) loading = null;
  });
  return promise;
}

function providerFor(sdk: Loaded["sdk"], provider: TSignInProvider) {
  switch (provider) {
    case "google": {
      const google = new sdk.GoogleAuthProvider();
      google.setCustomParameters({ prompt: "select_account" });
      return google;
    }
    case "github": {
      const github = new sdk.GithubAuthProvider();
      github.addScope("user:email");
      return github;
    }
    case "facebook":
      return new sdk.FacebookAuthProvider();
    case "twitter":
      return new sdk.TwitterAuthProvider();
  }
}

/** Opens the provider's popup; resolves with the Firebase user and a fresh ID token. */
export async function signInWithPopup(
  config: TFirebaseClientConfig,
  provider: TSignInProvider,
): Promise<PopupResult> {
  const { auth, sdk } = await load(config);
  const credential = await sdk.signInWithPopup(auth, providerFor(sdk, provider));
  const user = credential.user;
  try {
    return {
      uid: user.uid,
      email: user.email,
      displayName: user.displayName,
      photoURL: user.photoURL,
      idToken: await user.getIdToken(),
    };
  } finally {
    // Cohort's own sign-in takes over from here; the provider's stays in memory no longer.
    await sdk.signOut(auth).catch(() => undefined);
  }
}

/** The error code of a Firebase failure (`auth/popup-closed-by-user`), if it is one. */
export function firebaseErrorCode(error: unknown): string | null {
  if (typeof error !== "object" || error === null || !("code" in error)) return null;
  const code = (error as { code: unknown }).code;
  return typeof code === "string" && code.startsWith("auth/") ? code : null;
}

/** The user closed or replaced the popup: not a failure, nothing to say. */
const IGNORED_CODES = new Set(["auth/popup-closed-by-user", "auth/cancelled-popup-request"]);

/** True when the user closed the popup (or opened another): the error texts ignores it. */
export function isPopupDismissed(error: unknown): boolean {
  const code = firebaseErrorCode(error);
  return code !== null && IGNORED_CODES.has(code);
}

/**
 * The detail to show under "<Provider> login failed" for a provider error code, or null when
 * the code says nothing useful. docs/decisions/024-firebase-sign-in.md lists the mapping.
 */
export function popupFailureDetail(error: unknown, provider: TSignInProvider): string | null {
  const code = firebaseErrorCode(error);
  const name = SIGN_IN_PROVIDER_LABELS[provider];
  switch (code) {
    case "auth/network-request-failed":
      return `Could not reach ${name}. Check your connection and try again.`;
    case "auth/user-disabled":
      return `This ${name} sign-in has been disabled. Sign in another way or contact support.`;
    case "auth/user-token-expired":
    case "auth/requires-recent-login":
      return `Your ${name} sign-in has expired. Please sign in again.`;
    case "auth/popup-blocked":
      return "Your browser blocked the sign-in window. Allow pop-ups for this site and try again.";
    case "auth/account-exists-with-different-credential":
      return `An account with this email already signs in another way. Sign in that way first, then link ${name} in Settings.`;
    case "auth/credential-already-in-use":
      return `This ${name} account is already linked to another user.`;
    case "auth/operation-not-allowed":
      return `Sign-in with ${name} is not enabled for this app.`;
    case "auth/unauthorized-domain":
      return `Sign-in with ${name} is not allowed from this address.`;
    case "auth/too-many-requests":
      return "Too many sign-in attempts. Please wait a moment and try again.";
    case "auth/internal-error":
      return `${name} sign-in failed. Please try again.`;
    default:
      return null;
  }
}
