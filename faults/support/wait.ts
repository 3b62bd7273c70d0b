import { setTimeout as sleep } from "node:timers/promises";

/** `promise`, or an error naming `what` after `ms`: every wait of the fault tests is bounded. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Calls `check` every `intervalMs` until it returns a value other than undefined, and returns
 * that; after `ms`, throws naming `what` with the last thing `describe` says.
 */
export async function waitFor<T>(
  ms: number,
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  options: { intervalMs?: number; describe?: () => string | Promise<string> } = {},
): Promise<T> {
  const deadline = Date.now() + ms;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = options.describe ? await options.describe() : "";
      const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new Error(`no ${what} within ${ms / 1000} s${cause}${detail ? `: ${detail}` : ""}`);
    }
    await sleep(options.intervalMs ?? 100);
  }
}
