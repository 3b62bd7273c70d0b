import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./free-port";

/** Debian's packages: python3-jupyter-server and python3-ipykernel (decision 062). */
const PYTHON = process.env.JUPYTER_PYTHON ?? "/usr/bin/python3";

/**
 * Whether a Jupyter server with a Python kernel can start here. When it cannot, says so
 * loudly, and the caller skips its tests; scripts/test.mjs makes that a failure under
 * E2E_REQUIRED=1.
 */
export function jupyterServerInstalled(): boolean {
  const probe = spawnSync(PYTHON, ["-c", "import jupyter_server, ipykernel"], { stdio: "ignore" });
  if (probe.status === 0) return true;
  const banner = "!".repeat(78);
  console.warn(
    `\n${banner}\n!! THE JUPYTER TESTS WERE NOT RUN: no Jupyter server with ipykernel for ${PYTHON}.\n!! Install it: apt-get install -y python3-jupyter-server python3-ipykernel\n${banner}`,
  );
  return false;
}

export interface LocalJupyter {
  url: string;
  token: string;
  root: string;
  stop(): Promise<void>;
}

/** A real `jupyter server` on a loopback port with a random token, in a folder of its own. */
export async function startJupyterServer(): Promise<LocalJupyter> {
  const root = mkdtempSync(path.join(tmpdir(), "cohort-jupyter-"));
  const token = randomBytes(16).toString("hex");
  const port = await freePort();
  const child: ChildProcess = spawn(
    PYTHON,
    [
      "-m",
      "jupyter_server",
      "--no-browser",
      "--allow-root",
      `--port=${port}`,
      "--ServerApp.port_retries=0",
      "--ServerApp.ip=127.0.0.1",
      `--ServerApp.token=${token}`,
      `--ServerApp.root_dir=${root}`,
    ],
    {
      cwd: root,
      env: { PATH: "/usr/bin:/bin", HOME: root, JUPYTER_RUNTIME_DIR: path.join(root, ".runtime") },
      stdio: "ignore",
    },
  );
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`jupyter server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}api/status`, { headers: { authorization: `token ${token}` } })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("jupyter server did not answer within 90 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return {
    url,
    token,
    root,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
      rmSync(root, { recursive: true, force: true });
    },
  };
}
