import type { Realtime } from "../../platform/realtime";

export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
export const userRoom = (userId: string) => `user:${userId}`;

/**
 * Disconnects every socket opened with these sessions, on every instance (the Redis adapter
 * carries the request), so a revoked session stops receiving events at once.
 */
export function dropSessionSockets(realtime: Realtime, sessionIds: readonly string[]): void {
  if (sessionIds.length === 0) return;
  realtime.io.in(sessionIds.map(sessionRoom)).disconnectSockets(true);
}
