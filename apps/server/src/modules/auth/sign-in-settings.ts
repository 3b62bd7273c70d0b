/** How long a sign-in lives: unused for `idleDays`, or `maxDays` after sign-in at the most. */
export interface SignInSettings {
  idleDays: number;
  maxDays: number;
}

/** Sliding the idle expiry on every request would write on every request; once a minute is enough. */
export const SIGN_IN_TOUCH_INTERVAL_MS = 60_000;
