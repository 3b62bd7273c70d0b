import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  jupyterServerInstalled,
  type LocalJupyter,
  startJupyterServer,
} from "../../../test-support/jupyter-server";
import { JupyterRunner } from "../src/modules/code-runner/jupyter-runner";
import type { SandboxJob } from "../src/modules/code-runner/sandbox";

/** run_code against a real Jupyter server (Debian's python3-jupyter-server); skipped loudly without. */
const JUPYTER = jupyterServerInstalled();

let jupyter: LocalJupyter;
let runner: JupyterRunner;

beforeAll(async () => {
  if (!JUPYTER) return;
  jupyter = await startJupyterServer();
  runner = new JupyterRunner(
    { url: jupyter.url, token: jupyter.token, kernel: "python3" },
    { timeoutMs: 10_000, memoryBytes: 256 * 1024 * 1024, outputBytes: 64 * 1024 },
  );
}, 120_000);

afterAll(async () => {
  await jupyter?.stop();
});

const job = (code: string, extra: Partial<SandboxJob> = {}): SandboxJob => ({
  language: "python",
  code,
  files: [],
  runTests: false,
  ...extra,
});

describe.skipIf(!JUPYTER)("run_code on a Jupyter server's kernels", () => {
  it("runs Python in a kernel: output, the last value, and errors", async () => {
    const ok = await runner.run(
      job("import sys\nprint('hello')\nprint('warn', file=sys.stderr)\n6 * 7"),
      "run-a",
    );
    expect(ok.outcome).toBe("completed");
    expect(ok.stdout).toBe("hello\n42\n");
    expect(ok.stderr).toBe("warn\n");
    const bad = await runner.run(job("raise ValueError('bad input')"), "run-a");
    expect(bad.outcome).toBe("failed");
    expect(bad.error).toBe("The code raised an error.");
    expect(bad.stderr.trimEnd().split("\n").at(-1)).toBe("ValueError: bad input");
  }, 120_000);

  it("keeps a run's files in its folder for the next step", async () => {
    const write = await runner.run(job("open('data.txt', 'w').write('kept')"), "run-b");
    expect(write.outcome).toBe("completed");
    expect(readFileSync(path.join(jupyter.root, "cohort/run-b/data.txt"), "utf8")).toBe("kept");
    const read = await runner.run(job("print(open('data.txt').read())"), "run-b");
    expect(read.stdout).toBe("kept\n");
    const other = await runner.run(job("import os\nprint(os.path.exists('data.txt'))"), "run-c");
    expect(other.stdout).toBe("False\n");
    expect(existsSync(path.join(jupyter.root, "cohort/run-c"))).toBe(true);
  }, 120_000);

  it("counts the tests of the code", async () => {
    const r = await runner.run(
      job("def test_one(): assert 1 == 1\ndef test_overdue_fine(): assert 2 == 3", {
        runTests: true,
      }),
      "run-d",
    );
    expect(r.checks).toEqual({ ran: 2, passed: 1, failed: 1, failures: ["test_overdue_fine"] });
    expect(r.outcome).toBe("failed");
    expect(r.stderr).toBe("FAILED test_overdue_fine: AssertionError\n");
  }, 120_000);

  it("stops a loop at the time limit and caps the output", async () => {
    const fast = new JupyterRunner(
      { url: jupyter.url, token: jupyter.token, kernel: "python3" },
      { timeoutMs: 1500, memoryBytes: 256 * 1024 * 1024, outputBytes: 64 * 1024 },
    );
    const loop = await fast.run(job("while True:\n    pass"), "run-e");
    expect(loop.outcome).toBe("time_limit");
    expect(loop.error).toBe("Stopped after 1.5 s: the time limit of a run.");
    // 200 KB: under the server's own iopub rate limit (1 MB/s), which drops more silently.
    const loud = await runner.run(job("for i in range(2000):\n    print('y' * 100)"), "run-e");
    expect(loud.outcome).toBe("output_limit");
    expect(loud.error).toBe("Stopped: the run printed more than 64 KB of output.");
  }, 120_000);

  it("says so when the token is wrong", async () => {
    const wrong = new JupyterRunner(
      { url: jupyter.url, token: "wrong", kernel: "python3" },
      { timeoutMs: 5000, memoryBytes: 256 * 1024 * 1024, outputBytes: 64 * 1024 },
    );
    const r = await wrong.run(job("print(1)"), "run-f");
    expect(r.outcome).toBe("crashed");
    expect(r.error).toBe("The Jupyter server refused to start a kernel (HTTP 403).");
  }, 60_000);
});
