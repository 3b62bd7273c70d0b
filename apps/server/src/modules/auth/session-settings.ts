/** How long a session lives: unused for `idleDays`, or `maxDays` after sign-in at the most. */
export interface SessionSettings {
  idleDays: number;
  maxDays: number;
}

/** Sliding the idle expiry on every request would write on every request; once a minute is enough. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;
