import { SERVER_EVENTS } from "@cohort/contracts";
import { useEffect, useRef, useState } from "react";
import { getAuthSnapshot } from "../../auth/auth-store";
import { toast } from "../../components/toast/toast-store";
import { realtime } from "../../lib/realtime/realtime-client";
import { useRealtimeEvent } from "../../lib/realtime/use-realtime";
import { logger } from "../../lib/telemetry/logger";
import { observeCredits } from "../credits/credit-levels";
import { applyCreditBalance, refreshCredits } from "../credits/credit-sync";
import { teamOfCreditChange } from "../workspaces/team-credits";

/**
 * Watches the balance of the wallet that pays for what is on screen (decision 054) once for
 * the whole shell (the widget itself is drawn twice: sidebar and mobile header), so each drop
 * is announced and each threshold toast shown exactly once. Another wallet coming into view
 * (a team's pool, a personal session) is a new baseline, not a drop. Returns the text of the
 * latest drop for the live region.
 */
export function useCreditWatch(walletId: string | undefined, credits: number | undefined): string {
  const seen = useRef<{ walletId: string; credits: number } | null>(null);
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => {
    if (walletId === undefined || credits === undefined) return;
    const previous = seen.current?.walletId === walletId ? seen.current.credits : null;
    seen.current = { walletId, credits };
    if (previous === credits) return;
    const change = observeCredits(previous, credits);
    if (change.announcement) setAnnouncement(change.announcement);
    if (change.toast) toast(change.toast);
  }, [walletId, credits]);

  return announcement;
}

/**
 * Live balance (the issue's `credits.changed`, sent to the user's sockets after every change):
 * spending, a payment, an administrator's grant show without a reload. On every (re)connection
 * the profile is asked for again, since changes made before the socket joined were not pushed.
 */
export function useLiveCredits(): void {
  useRealtimeEvent(SERVER_EVENTS.creditsChanged, (change) => {
    // A team pool's change is the workspace widget's (team-credits.tsx), not this balance.
    if (teamOfCreditChange(change, getAuthSnapshot().user?.id) !== null) return;
    applyCreditBalance(change.balance);
  });
  useEffect(
    () =>
      realtime.onConnect(() => {
        refreshCredits().catch((error: unknown) => {
          logger.warn("Could not refresh the credit balance", {
            cause: error instanceof Error ? error.message : String(error),
          });
        });
      }),
    [],
  );
  // A refused reconnection (an administrator disabled the account or ended its sign-ins)
  // says nothing by itself: asking for the profile lets the API's 401 policy sign out.
  useEffect(() => {
    let gaveUp = realtime.connection.getSnapshot().gaveUp;
    return realtime.connection.subscribe(() => {
      const now = realtime.connection.getSnapshot().gaveUp;
      if (now && !gaveUp) refreshCredits().catch(() => undefined);
      gaveUp = now;
    });
  }, []);
}

/** The polite live region that reads out each drop ("Used 3 credits. 17 credits remaining."). */
export function CreditAnnouncer({ text }: { text: string }) {
  return (
    <p role="status" aria-live="polite" className="sr-only" data-testid="credit-announcement">
      {text}
    </p>
  );
}
