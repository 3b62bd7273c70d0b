import { createServer } from "node:net";

/**
 * Ports for servers the tests start as child processes are drawn from below the kernel's
 * ephemeral range (32768–60999 on Linux). A port from `listen(0)`, closed and handed to a
 * child, can be given to another process's outgoing connection or `listen(0)` before the
 * child listens — likely when `npm test` runs the browser tests beside the fault tests and a
 * second Node's pass. Below the range only another test drawing the same number can take it.
 */
const FIRST = 20_000;
const LAST = 32_000;

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** The first of `count` consecutive free loopback ports (an instance per port, say). */
export async function freePort(count = 1): Promise<number> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const first = FIRST + Math.floor(Math.random() * (LAST - FIRST - count));
    let free = true;
    for (let port = first; free && port < first + count; port += 1) free = await isFree(port);
    if (free) return first;
  }
  throw new Error(`no ${count} free consecutive ports between ${FIRST} and ${LAST}`);
}
