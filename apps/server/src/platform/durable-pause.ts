import type { ApprovalWaiters } from "./approval-waiters";

/**
 * A waiting lane also looks at its row this often: the wake through Redis (or in this
 * process) is the fast path, this is what makes a lost wake, or instances without Redis,
 * still see the decision (decision 059).
 */
const POLL_MS = 2_000;

/** A stored request someone answers: pending until decided (or expired). */
export interface PausedRow {
  id: string;
  status: string;
  expires_at: Date | string;
}

/**
 * The durable pause (decision 059): waits until the stored request `id` is no longer
 * pending — decided by anyone on any instance (woken through `waiters`), or past its
 * `expires_at` (then `expire` closes it) — and returns it as stored; null when it is gone.
 * Rejects with the signal's reason when the work stops (a stop, a shutdown's hand-over): the
 * request stays pending for the next life of the work to find. Nothing here is about tools:
 * a plan review  pauses the same way with its own rows.
 */
export async function waitUntilDecided<R extends PausedRow>(options: {
  id: string;
  waiters: ApprovalWaiters;
  signal: AbortSignal;
  read(): Promise<R | null>;
  expire(row: R): Promise<void>;
}): Promise<R | null> {
  const { id, waiters, signal } = options;
  for (;;) {
    signal.throwIfAborted();
    // Listen before looking, so a decision made in between wakes this look's wait.
    const wake = waiters.wake(id, signal);
    try {
      const row = await options.read();
      if (row?.status !== "pending") return row;
      const left = new Date(row.expires_at).getTime() - Date.now();
      if (left <= 0) {
        await options.expire(row);
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        wake.promise,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, Math.min(left, POLL_MS));
        }),
      ]);
      clearTimeout(timer);
    } finally {
      wake.cancel();
    }
  }
}
