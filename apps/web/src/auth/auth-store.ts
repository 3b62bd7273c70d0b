import {
  AUTH_INIT_TIMEOUT_MS,
  type TAuthResponse,
  type TSignedInUserResponse,
  type TUserProfile,
} from "@cohort/contracts";
import { api, onSignInLost } from "../lib/api/api";
import { isApiError } from "../lib/api/api-error";
import {
  getBrowserStorage,
  removeStorageIfPresent,
  STORAGE_KEYS,
  writeStorage,
} from "../lib/storage/browser-storage";
import { logger } from "../lib/telemetry/logger";

/**
 * The browser's sign-in state (the UI states): `loading` until the sign-in check answers or 2 s
 * pass, then `authenticated` or `unauthenticated`. One store for the whole page load, outside
 * React, so every layout and guard sees the same answer and the check runs once.
 *
 * The sign-in itself is the HttpOnly cookie; web storage only mirrors non-secret facts:
 * - localStorage `authToken` = AUTH_TOKEN_MARKER, a constant that says "this browser signed
 *   in through the cookie" (never the bearer token);
 * - localStorage and sessionStorage `userProfile` = the public profile JSON.
 */
export type AuthStatus = "loading" | "authenticated" | "unauthenticated";

export interface AuthSnapshot {
  status: AuthStatus;
  user: TUserProfile | null;
}

export const AUTH_TOKEN_MARKER = "cookie-sign-in";

type Listener = () => void;

let snapshot: AuthSnapshot = { status: "loading", user: null };
let started = false;
/** Bumped by every sign-in or sign-out, so a late sign-in check cannot undo them. */
let generation = 0;
const listeners = new Set<Listener>();

function emit(next: AuthSnapshot): void {
  snapshot = next;
  for (const listener of listeners) listener();
}

export function getAuthSnapshot(): AuthSnapshot {
  return snapshot;
}

export function subscribeAuth(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function persistUser(user: TUserProfile): void {
  const json = JSON.stringify(user);
  writeStorage(getBrowserStorage("localStorage"), STORAGE_KEYS.authToken, AUTH_TOKEN_MARKER);
  writeStorage(getBrowserStorage("localStorage"), STORAGE_KEYS.userProfile, json);
  writeStorage(getBrowserStorage("sessionStorage"), STORAGE_KEYS.sessionProfile, json);
}

function forgetUser(): void {
  const local = getBrowserStorage("localStorage");
  removeStorageIfPresent(local, STORAGE_KEYS.authToken);
  removeStorageIfPresent(local, STORAGE_KEYS.userProfile);
  removeStorageIfPresent(getBrowserStorage("sessionStorage"), STORAGE_KEYS.sessionProfile);
}

/** Records a signed-in user: after login, sign-up, Google, or a fresh profile. */
export function setSignedIn(user: TUserProfile): void {
  generation += 1;
  started = true;
  persistUser(user);
  logger.setContext({ userId: user.id });
  emit({ status: "authenticated", user });
}

/** Forgets the user locally (after logout, or when the server says the sign-in is gone). */
export function setSignedOut(): void {
  generation += 1;
  started = true;
  forgetUser();
  logger.setContext({});
  emit({ status: "unauthenticated", user: null });
}

async function checkSignIn(): Promise<void> {
  const mine = generation;
  const timer = setTimeout(() => {
    if (mine !== generation || snapshot.status !== "loading") return;
    logger.warn("The sign-in check took longer than 2 s; continuing as signed out", {
      timeoutMs: AUTH_INIT_TIMEOUT_MS,
    });
    emit({ status: "unauthenticated", user: null });
  }, AUTH_INIT_TIMEOUT_MS);
  try {
    const { user } = await api.get<TSignedInUserResponse>("/auth/me", {
      redirectOnUnauthorized: false,
    });
    if (mine !== generation) return;
    if (user) setSignedIn(user);
    else setSignedOut();
  } catch (error) {
    if (mine !== generation) return;
    if (isApiError(error) && error.status === 401) {
      setSignedOut();
      return;
    }
    logger.warn("The sign-in check failed; continuing as signed out", {
      status: isApiError(error) ? error.status : undefined,
      code: isApiError(error) ? error.code : undefined,
    });
    emit({ status: "unauthenticated", user: null });
  } finally {
    clearTimeout(timer);
  }
}

/** Starts the sign-in check once per page load; later calls do nothing. */
export function ensureAuthResolved(): void {
  if (started) return;
  started = true;
  void checkSignIn();
}

/** Asks the server again, e.g. after the profile changed elsewhere. */
export async function refreshProfile(): Promise<TUserProfile | null> {
  started = true;
  await checkSignIn();
  return snapshot.user;
}

/** Applies the answer of login, sign-up or Google sync. */
export function applyAuthResponse(response: TAuthResponse): TUserProfile {
  // The server rotates the CSRF secret on sign-in; the cached token belongs to the old one.
  api.clearCsrfToken();
  setSignedIn(response.user);
  return response.user;
}

/** Ends the sign-in on the server, then locally, whatever the server said. */
export async function signOut(): Promise<void> {
  try {
    await api.post("/auth/logout");
  } catch (error) {
    logger.warn("Logout call failed; signing out locally", {
      code: isApiError(error) ? error.code : undefined,
    });
  } finally {
    // The server rotates the CSRF secret on logout; the cached token belongs to the old one.
    api.clearCsrfToken();
    setSignedOut();
  }
}

onSignInLost(() => {
  if (snapshot.status === "authenticated") setSignedOut();
});
