import type { Realtime } from "../../platform/realtime";
import { signInRoom } from "../../platform/realtime-rooms";

/**
 * Disconnects every socket opened with these sessions, on every instance (the Redis adapter
 * carries the request), so a revoked session stops receiving events at once.
 */
export function dropSessionSockets(realtime: Realtime, sessionIds: readonly string[]): void {
  if (sessionIds.length === 0) return;
  realtime.io.in(sessionIds.map(signInRoom)).disconnectSockets(true);
}
