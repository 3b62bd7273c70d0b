/**
 * Answers asked for at page load, before the component that needs them has mounted (decision
 * 080): the boot starts the calls a signed-in page will make side by side with the sign-in
 * check, and the component takes the answer once instead of asking again.
 *
 * An answer is handed over at most once, within BOOT_PREFETCH_TTL_MS of the page load, and
 * only to the user it was asked for: every slot is dropped when the sign-in changes (signed
 * out, or another user). A failed prefetch is not an answer: the taker asks again itself.
 */
export const BOOT_PREFETCH_TTL_MS = 10_000;

interface Slot {
  promise: Promise<unknown>;
  at: number;
}

const slots = new Map<string, Slot>();

/**
 * Starts `ask` now and keeps its answer for one later `takePrefetched(key)`; returns it too,
 * so the boot can make another call wait for this one.
 */
export function prefetchOnce<T>(key: string, ask: () => Promise<T>): Promise<T> {
  const asked = slots.get(key);
  if (asked) return asked.promise as Promise<T>;
  const promise = ask();
  // Unhandled until taken: a rejection that nobody takes must not reach the console.
  promise.catch(() => undefined);
  slots.set(key, { promise, at: performance.now() });
  return promise;
}

/** The prefetched answer for `key`, once; null when there is none (or it is too old). */
export function takePrefetched<T>(key: string): Promise<T> | null {
  const slot = slots.get(key);
  if (!slot) return null;
  slots.delete(key);
  if (performance.now() - slot.at > BOOT_PREFETCH_TTL_MS) return null;
  return slot.promise as Promise<T>;
}

/**
 * The prefetched answer if there is one and it succeeded, else `ask()`: a taker's one way to
 * use the boot's answer without ever depending on it.
 */
export async function prefetchedOr<T>(key: string, ask: () => Promise<T>): Promise<T> {
  const early = takePrefetched<T>(key);
  if (early) {
    try {
      return await early;
    } catch {
      // A 401/403 or a network failure at boot: ask again, under today's sign-in.
    }
  }
  return ask();
}

/** Forgets every slot (the sign-in changed: answers asked for the previous one must not show). */
export function dropPrefetched(): void {
  slots.clear();
}
