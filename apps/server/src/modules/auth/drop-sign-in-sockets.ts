import type { Realtime } from "../../platform/realtime";
import { signInRoom } from "../../platform/realtime-rooms";

/**
 * Disconnects every socket opened with these sign-ins, on every instance (the Redis adapter
 * carries the request), so a revoked sign-in stops receiving events at once.
 */
export function dropSignInSockets(realtime: Realtime, signInIds: readonly string[]): void {
  if (signInIds.length === 0) return;
  realtime.io.in(signInIds.map(signInRoom)).disconnectSockets(true);
}
