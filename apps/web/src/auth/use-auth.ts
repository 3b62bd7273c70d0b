import { useEffect, useSyncExternalStore } from "react";
import {
  type AuthSnapshot,
  ensureAuthResolved,
  getAuthSnapshot,
  subscribeAuth,
} from "./auth-store";

/** The sign-in state; the first caller in a page load starts the sign-in check. */
export function useAuth(): AuthSnapshot {
  const auth = useSyncExternalStore(subscribeAuth, getAuthSnapshot, getAuthSnapshot);
  useEffect(() => ensureAuthResolved(), []);
  return auth;
}
