import { REDIRECT_LOOP_MAX, REDIRECT_LOOP_WINDOW_MS } from "@cohort/contracts";
import {
  readStorage,
  removeStorageIfPresent,
  STORAGE_KEYS,
  type StorageLike,
  writeStorage,
} from "../lib/storage/browser-storage";

/**
 * The login redirect-loop guard: the login page sends a signed-in user to /dashboard,
 * and if that happens more than 3 times with each redirect within 2 s of the previous one,
 * something bounces the user back (a stale sign-in, a broken guard) and redirecting stops.
 */
export interface LoginRedirectState {
  count: number;
  /** Epoch ms of the last redirect, or null before the first. */
  lastAt: number | null;
}

export interface LoginRedirectVerdict {
  allowed: boolean;
  state: LoginRedirectState;
}

export const INITIAL_LOGIN_REDIRECT_STATE: LoginRedirectState = { count: 0, lastAt: null };

/** Counts one redirect at `now`; a redirect more than 2 s after the last one starts over. */
export function registerLoginRedirect(
  state: LoginRedirectState,
  now: number,
): LoginRedirectVerdict {
  const withinWindow = state.lastAt !== null && now - state.lastAt < REDIRECT_LOOP_WINDOW_MS;
  const count = withinWindow ? state.count + 1 : 1;
  return { allowed: count <= REDIRECT_LOOP_MAX, state: { count, lastAt: now } };
}

function readNumber(storage: StorageLike | null, key: string): number | null {
  const raw = readStorage(storage, key);
  if (raw === null) return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

/** The guard's state as kept in sessionStorage (the data model). */
export function readLoginRedirectState(session: StorageLike | null): LoginRedirectState {
  return {
    count: readNumber(session, STORAGE_KEYS.loginRedirectCount) ?? 0,
    lastAt: readNumber(session, STORAGE_KEYS.lastLoginRedirect),
  };
}

export function writeLoginRedirectState(
  session: StorageLike | null,
  state: LoginRedirectState,
): void {
  writeStorage(session, STORAGE_KEYS.loginRedirectCount, String(state.count));
  if (state.lastAt !== null) {
    writeStorage(session, STORAGE_KEYS.lastLoginRedirect, String(state.lastAt));
  }
}

export function resetLoginRedirectState(session: StorageLike | null): void {
  removeStorageIfPresent(session, STORAGE_KEYS.loginRedirectCount);
  removeStorageIfPresent(session, STORAGE_KEYS.lastLoginRedirect);
}

export interface GuardStorages {
  session: StorageLike | null;
  local: StorageLike | null;
}

/**
 * Records a login → dashboard redirect and says whether it may happen. When it may not, the
 * stored sign-in state (`authToken`, `userProfile`) is cleared, as the sign-in rules ask.
 */
export function guardLoginRedirect(storages: GuardStorages, now: number): LoginRedirectVerdict {
  const verdict = registerLoginRedirect(readLoginRedirectState(storages.session), now);
  writeLoginRedirectState(storages.session, verdict.state);
  if (!verdict.allowed) {
    removeStorageIfPresent(storages.local, STORAGE_KEYS.authToken);
    removeStorageIfPresent(storages.local, STORAGE_KEYS.userProfile);
    removeStorageIfPresent(storages.session, STORAGE_KEYS.sessionProfile);
  }
  return verdict;
}
