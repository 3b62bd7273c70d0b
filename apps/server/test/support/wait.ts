import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance } from "fastify";

/**
 * Reads until `done` holds (every 25 ms, for about 10 s), and returns the last value read:
 * for what the app writes in the background (telemetry's queue, logs). The caller asserts on
 * it, so a value that never comes fails there with what was read.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  let value = await read();
  for (let attempt = 0; attempt < 400 && !done(value); attempt++) {
    await sleep(25);
    value = await read();
  }
  return value;
}

/** Until this process has no work left on the run (a re-run's calls and bookkeeping). */
export async function untilIdle(app: FastifyInstance, runId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (app.orchestration.control.busy(runId)) {
    if (Date.now() > deadline) throw new Error(`run ${runId} is still busy`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
