import { useEffect, useRef, useSyncExternalStore } from "react";
import type { ConnectionSnapshot } from "./connection-state";
import { realtime, type ServerEventName, type ServerEventPayloads } from "./realtime-client";

/** Keeps the socket open while the calling component is mounted. */
export function useRealtimeConnection(): void {
  useEffect(() => realtime.acquire(), []);
}

/** The connection indicator's state (the UI states). */
export function useConnectionSnapshot(): ConnectionSnapshot {
  return useSyncExternalStore(
    realtime.connection.subscribe,
    realtime.connection.getSnapshot,
    realtime.connection.getSnapshot,
  );
}

/**
 * Calls `handler` for every `event` the server sends this user, e.g.
 * `useRealtimeEvent("credits.changed", (change) => …)` for the balance widget. The socket
 * stays open while the component is mounted; the latest `handler` is always the one called.
 */
export function useRealtimeEvent<K extends ServerEventName>(
  event: K,
  handler: (payload: ServerEventPayloads[K]) => void,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const release = realtime.acquire();
    const off = realtime.on(event, (payload) => latest.current(payload));
    return () => {
      off();
      release();
    };
  }, [event]);
}
