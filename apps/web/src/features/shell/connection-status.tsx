/**
 * Where the app shell shows the realtime connection state (spec §4 Connection indicator).
 * The realtime issue fills it; until a socket exists there is no state to show, and a made-up
 * one would mislead, so it renders nothing.
 */
export function ConnectionStatusSlot() {
  return null;
}
