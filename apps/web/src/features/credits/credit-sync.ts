import type { TUserProfile, TUserResponse } from "@cohort/contracts";
import { getAuthSnapshot, setSignedIn } from "../../auth/auth-store";
import { api } from "../../lib/api/api";

/**
 * Keeps the balance the shell shows (the profile's credits_remaining in the auth store) in
 * step with the server: a fresh profile on demand, or a balance pushed over the socket.
 * Neither may sign anyone back in: an answer that arrives after sign-out, or for another
 * account, is dropped.
 */
function stillSignedInAs(userId: string): TUserProfile | null {
  const { status, user } = getAuthSnapshot();
  return status === "authenticated" && user?.id === userId ? user : null;
}

let inFlight: Promise<TUserProfile> | null = null;
/** Counts pushed balances: a profile read that a push overtook is older than what is shown. */
let pushes = 0;

/** Fetches the profile and applies it; concurrent callers share one request. Rejects on failure. */
export function refreshCredits(): Promise<TUserProfile> {
  const asked = getAuthSnapshot().user?.id;
  const pushesBefore = pushes;
  inFlight ??= api
    .get<TUserResponse>("/users/profile")
    .then(({ user }) => {
      const current = asked === undefined ? null : stillSignedInAs(asked);
      if (current && user.id === asked) {
        setSignedIn(
          pushes === pushesBefore
            ? user
            : { ...user, credits_remaining: current.credits_remaining },
        );
      }
      return user;
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

/** Applies a balance the server pushed (`credits.changed`). */
export function applyCreditBalance(balance: number): void {
  pushes += 1;
  const user = getAuthSnapshot().user;
  if (!user || !stillSignedInAs(user.id) || user.credits_remaining === balance) return;
  setSignedIn({ ...user, credits_remaining: balance });
}
