import { UI_RECONNECT_DELAY_MS, UI_RECONNECTED_DISPLAY_MS } from "@cohort/contracts";

/**
 * The connection indicator of the UI states as a pure state machine: the socket reports what
 * happens (connected, disconnected, gave up), a clock drives the two timed steps.
 *
 *   hidden ──lost──▶ disconnected ──2 s──▶ reconnecting
 *      ▲                 │                      │
 *      └──3 s── reconnected ◀──────connected────┘
 *
 * While the very first connection is being made the indicator stays hidden: nothing was
 * lost yet, and a "Disconnected" flash on every page load would be noise. A first
 * connection that fails counts as lost (docs/decisions/010-realtime-client-and-run-view.md).
 */
export type ConnectionIndicator = "hidden" | "disconnected" | "reconnecting" | "reconnected";

export const CONNECTION_LABELS = {
  disconnected: "Disconnected",
  reconnecting: "Reconnecting",
  reconnected: "Reconnected",
} as const satisfies Record<Exclude<ConnectionIndicator, "hidden">, string>;

export const CONNECTION_ANNOUNCEMENTS = {
  lost: "Connection lost",
  reconnecting: "Attempting to reconnect",
  restored: "Connection restored",
} as const;

export interface ConnectionSnapshot {
  connected: boolean;
  indicator: ConnectionIndicator;
  /** The newest text for the polite live region ("" before the first). */
  announcement: string;
  /** Bumped with every announcement, so saying the same text twice still announces it. */
  announcementId: number;
  /** Every automatic reconnection attempt failed; only a manual retry can help now. */
  gaveUp: boolean;
}

export interface MachineClock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ConnectionMachine {
  getSnapshot(): ConnectionSnapshot;
  subscribe(listener: () => void): () => void;
  /** The socket is connected (first time or again). */
  connected(): void;
  /** The socket lost its connection, or a connection attempt failed. */
  disconnected(): void;
  /** The socket stopped trying on its own (all reconnection attempts failed). */
  gaveUp(): void;
  /** A new attempt started after giving up (the user pressed Retry). */
  retrying(): void;
  /** Back to the initial state, timers cleared (sign-out). */
  reset(): void;
}

export const INITIAL_CONNECTION_SNAPSHOT: ConnectionSnapshot = {
  connected: false,
  indicator: "hidden",
  announcement: "",
  announcementId: 0,
  gaveUp: false,
};

export function createConnectionMachine(clock: MachineClock): ConnectionMachine {
  let snapshot = INITIAL_CONNECTION_SNAPSHOT;
  let timer: unknown = null;
  const listeners = new Set<() => void>();

  const set = (patch: Partial<ConnectionSnapshot>, announce?: string) => {
    snapshot = {
      ...snapshot,
      ...patch,
      ...(announce
        ? { announcement: announce, announcementId: snapshot.announcementId + 1 }
        : undefined),
    };
    for (const listener of listeners) listener();
  };

  const clearTimer = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
  };

  const startReconnectingTimer = () => {
    clearTimer();
    timer = clock.setTimeout(() => {
      timer = null;
      if (snapshot.indicator === "disconnected" && !snapshot.gaveUp) {
        set({ indicator: "reconnecting" }, CONNECTION_ANNOUNCEMENTS.reconnecting);
      }
    }, UI_RECONNECT_DELAY_MS);
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    connected() {
      if (snapshot.connected) return;
      clearTimer();
      const wasLost =
        snapshot.indicator === "disconnected" || snapshot.indicator === "reconnecting";
      if (!wasLost) {
        set({ connected: true, indicator: "hidden", gaveUp: false });
        return;
      }
      set(
        { connected: true, indicator: "reconnected", gaveUp: false },
        CONNECTION_ANNOUNCEMENTS.restored,
      );
      timer = clock.setTimeout(() => {
        timer = null;
        if (snapshot.indicator === "reconnected") set({ indicator: "hidden" });
      }, UI_RECONNECTED_DISPLAY_MS);
    },
    disconnected() {
      // Every failed attempt reports again; only the first report of a loss counts.
      if (snapshot.indicator === "disconnected" || snapshot.indicator === "reconnecting") {
        if (snapshot.connected) set({ connected: false });
        return;
      }
      set({ connected: false, indicator: "disconnected" }, CONNECTION_ANNOUNCEMENTS.lost);
      startReconnectingTimer();
    },
    gaveUp() {
      clearTimer();
      set({ connected: false, indicator: "disconnected", gaveUp: true });
    },
    retrying() {
      if (snapshot.connected) return;
      clearTimer();
      set({ indicator: "reconnecting", gaveUp: false }, CONNECTION_ANNOUNCEMENTS.reconnecting);
    },
    reset() {
      clearTimer();
      snapshot = INITIAL_CONNECTION_SNAPSHOT;
      for (const listener of listeners) listener();
    },
  };
}
