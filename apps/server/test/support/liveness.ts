import { expect } from "vitest";

/** What `probeLiveness` saw: each probe's milliseconds and how long the watched work ran. */
export interface Probes {
  latencies: number[];
  workMs: number;
}

/**
 * Probes `/api/health/live` over real HTTP, one after another, until `done()` says the work
 * being watched has finished. `between` runs after each probe (e.g. to look at the work's
 * state).
 */
export async function probeLiveness(
  url: string,
  done: () => boolean,
  between: () => Promise<void> = async () => {},
): Promise<Probes> {
  const latencies: number[] = [];
  const began = performance.now();
  do {
    const started = performance.now();
    const response = await fetch(`${url}/api/health/live`);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    latencies.push(performance.now() - started);
    await between();
  } while (!done());
  return { latencies, workMs: performance.now() - began };
}

/**
 * The server kept answering while the work ran. A blocked event loop holds the probe that
 * meets it for as long as it is blocked (one PDF export held the server for 10 s before
 * decision 050), so the loop above would see one or two probes, the slowest as long as the
 * work itself. Nothing here is a bound in milliseconds, which a loaded machine stretches
 * (CI saw a 1,087 ms probe on a 2-core machine running four test processes and Chromium):
 * many probes must be answered while the work runs, and no probe may have waited for half
 * of it. Both hold however slow the machine is, and both fail for a server that freezes.
 */
export function expectResponsive({ latencies, workMs }: Probes): void {
  expect(latencies.length).toBeGreaterThan(10);
  expect(Math.max(...latencies)).toBeLessThan(workMs / 2);
}
