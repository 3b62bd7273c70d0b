import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, inject } from "vitest";
import { useBaseURL } from "./browser";
import { freePort, startServer, stopServer } from "./server";

/**
 * Gives the calling test file a server of its own, with the suite's administrator, for a file
 * that changes what every account on a server sees (a new agreement version blocks all of
 * them until they accept it): the files running beside it keep the shared server unchanged.
 * Pages opened with openPage and the calls of ./accounts go to this server. `env` adds to
 * the suite's settings (e.g. SIMULATOR_CHARGES: "0" for the free simulator, a slower
 * SIMULATOR_TOKENS_PER_SECOND for a file that catches a lane mid-stream).
 */
export function useOwnServer(env: Record<string, string> = {}): void {
  let server: ChildProcess | undefined;
  beforeAll(async () => {
    const port = await freePort();
    server = await startServer(port, {
      ADMIN_EMAIL: inject("adminEmail"),
      ADMIN_PASSWORD: inject("adminPassword"),
      // The project's pace, as on the shared server: a file of the e2e project waits for
      // runs to end, so its own server need not stream them slowly (decision 093).
      SIMULATOR_TOKENS_PER_SECOND: inject("simulatorPace"),
      ...env,
    });
    useBaseURL(`http://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    useBaseURL(undefined);
    if (server) await stopServer(server);
  });
}
