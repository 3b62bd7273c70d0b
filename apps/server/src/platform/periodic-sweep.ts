import type { FastifyBaseLogger } from "fastify";

export interface Sweeper {
  stop(): Promise<void>;
}

/**
 * Runs `sweep` every `intervalMs`; a sweep still going when the next is due is not doubled.
 * What it did (a count above 0) is logged as `swept`, a failure as `failed`. The timer does
 * not keep the process alive; `stop` clears it and waits for the sweep under way.
 */
export function startPeriodicSweep(
  sweep: () => Promise<number>,
  options: { intervalMs: number; log: FastifyBaseLogger; swept: string; failed: string },
): Sweeper {
  const { log } = options;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = sweep()
      .then((count) => {
        if (count > 0) log.info({ count }, options.swept);
      })
      .catch((error: unknown) => log.error({ err: error }, options.failed))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
