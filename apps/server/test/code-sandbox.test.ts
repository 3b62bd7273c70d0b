import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CodeSandbox,
  type SandboxJob,
  type SandboxResult,
} from "../src/modules/code-runner/sandbox";
import { readScratch, writeScratch } from "../src/modules/code-runner/scratch-files";
import { createTestApp, type TestApp } from "./support/app";

/**
 * The embedded sandbox (decision 062) against code that tries to hurt the host: each attempt
 * ends with a clear error and the server keeps answering. Start-up is outside the time limit,
 * so a loaded machine slows these tests without changing their outcome.
 */
let t: TestApp;
let sandbox: CodeSandbox;
let httpServer: Server;
let hits = 0;
let port = 0;

beforeAll(async () => {
  t = await createTestApp();
  sandbox = new CodeSandbox(
    { timeoutMs: 8000, memoryBytes: 256 * 1024 * 1024, outputBytes: 1024 * 1024 },
    { warm: true },
  );
  sandbox.prewarm();
  httpServer = createServer((_req, res) => {
    hits += 1;
    res.end("reached");
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  port = (httpServer.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  sandbox?.close();
  if (httpServer) await new Promise((resolve) => httpServer.close(resolve));
  await t?.close();
});

const run = (job: Partial<SandboxJob> & { code: string }): Promise<SandboxResult> =>
  sandbox.run({ language: "python", files: [], runTests: false, ...job });

/** The server answers its health check while a run is going on. */
async function healthDuring(pending: Promise<SandboxResult>): Promise<SandboxResult> {
  const health = await t.app.inject({ method: "GET", url: "/api/health" });
  expect(health.statusCode).toBe(200);
  return pending;
}

describe("the embedded sandbox runs code", () => {
  it("runs Python and returns its output and exit status", async () => {
    const r = await run({ code: "import sys\nprint('hello')\nprint('warn', file=sys.stderr)" });
    expect(r.outcome).toBe("completed");
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("hello\n");
    expect(r.stderr).toBe("warn\n");
    expect(r.error).toBeNull();
  }, 120_000);

  it("reports a Python exception as a failed run with its traceback", async () => {
    const r = await run({ code: "raise ValueError('bad input')" });
    expect(r.outcome).toBe("failed");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('File "main.py", line 1, in <module>');
    expect(r.stderr.trimEnd().split("\n").at(-1)).toBe("ValueError: bad input");
    expect(r.error).toBe("The code exited with status 1.");
  }, 120_000);

  it("keeps sys.exit's status", async () => {
    const r = await run({ code: "import sys\nsys.exit(3)" });
    expect(r.outcome).toBe("failed");
    expect(r.exitCode).toBe(3);
  }, 120_000);

  it("runs JavaScript and TypeScript (types stripped first)", async () => {
    const js = await run({
      language: "javascript",
      code: "console.log('sum', [1, 2, 3].reduce((a, b) => a + b))",
    });
    expect(js.outcome).toBe("completed");
    expect(js.stdout).toBe("sum 6\n");
    const ts = await run({
      language: "typescript",
      code: "interface P { n: number }\nconst p: P = { n: 21 };\nconsole.log(p.n * 2 as number);",
    });
    expect(ts.outcome).toBe("completed");
    expect(ts.stdout).toBe("42\n");
    const thrown = await run({ language: "javascript", code: "throw new TypeError('nope')" });
    expect(thrown.outcome).toBe("failed");
    expect(thrown.stderr.split("\n")[0]).toBe("TypeError: nope");
  }, 120_000);

  it("counts test functions: passed, failed and the failures' names", async () => {
    const py = await run({
      runTests: true,
      code: [
        "def fine(days): return max(0, days) * 0.5",
        "def test_on_time(): assert fine(0) == 0",
        "def test_overdue_fine(): assert fine(3) == 2.0",
        "def test_negative(): assert fine(-1) == 0",
      ].join("\n"),
    });
    expect(py.checks).toEqual({ ran: 3, passed: 2, failed: 1, failures: ["test_overdue_fine"] });
    expect(py.outcome).toBe("failed");
    expect(py.stderr).toBe("FAILED test_overdue_fine: AssertionError\n");
    const js = await run({
      language: "javascript",
      runTests: true,
      code: "function add(a, b) { return a + b }\nfunction testAdd() { if (add(2, 2) !== 4) throw new Error('add') }\nfunction testBroken() { if (add(2, 2) !== 5) throw new Error('2 + 2 is not 5') }",
    });
    expect(js.checks).toEqual({ ran: 2, passed: 1, failed: 1, failures: ["testBroken"] });
    expect(js.stderr).toBe("FAILED testBroken: Error: 2 + 2 is not 5\n");
  }, 120_000);

  it("a file written by one run is read by the next through the scratch folder", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cohort-scratch-"));
    try {
      const first = await run({
        code: "import os\nos.makedirs('out', exist_ok=True)\nopen('out/data.csv', 'w').write('a,b\\n1,2\\n')",
        files: (await readScratch(dir)).files,
      });
      expect(first.outcome).toBe("completed");
      expect(first.files.map((f) => f.name)).toEqual(["out/data.csv"]);
      await writeScratch(dir, first.files);
      expect(readFileSync(path.join(dir, "out/data.csv"), "utf8")).toBe("a,b\n1,2\n");
      const second = await run({
        code: "import csv\nrows = list(csv.reader(open('out/data.csv')))\nprint(rows)",
        files: (await readScratch(dir)).files,
      });
      expect(second.stdout).toBe("[['a', 'b'], ['1', '2']]\n");
      expect(second.files).toEqual([]);
      const js = await run({
        language: "javascript",
        code: "writeFile('note.txt', readFile('out/data.csv').toUpperCase())",
        files: (await readScratch(dir)).files,
      });
      expect(js.outcome).toBe("completed");
      await writeScratch(dir, js.files);
      expect(readFileSync(path.join(dir, "note.txt"), "utf8")).toBe("A,B\n1,2\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("the embedded sandbox contains code that misbehaves", () => {
  it("stops an infinite loop at the time limit while the server stays healthy", async () => {
    const r = await healthDuring(run({ code: "while True:\n    pass" }));
    expect(r.outcome).toBe("time_limit");
    expect(r.error).toBe("Stopped after 8 s: the time limit of a run.");
    const js = await healthDuring(run({ language: "javascript", code: "for (;;) {}" }));
    expect(js.outcome).toBe("time_limit");
    expect(js.error).toBe("Stopped after 8 s: the time limit of a run.");
  }, 120_000);

  it("stops a memory bomb at the memory limit", async () => {
    const py = await healthDuring(
      run({ code: "blocks = []\nwhile True:\n    blocks.append(bytearray(16 * 1024 * 1024))" }),
    );
    expect(py.outcome).toBe("memory_limit");
    expect(py.error).toBe("Stopped: the run reached its memory limit of 256 MB.");
    expect(py.stderr.trimEnd().split("\n").at(-1)).toBe("MemoryError");
    const js = await healthDuring(
      run({
        language: "javascript",
        code: "const s = 'x'.repeat(300 * 1024 * 1024); console.log(s.length)",
      }),
    );
    expect(js.outcome).toBe("memory_limit");
    expect(js.error).toBe("Stopped: the run reached its memory limit of 256 MB.");
  }, 120_000);

  it("starts no process: os.system, fork and subprocess fail", async () => {
    const system = await healthDuring(run({ code: "import os\nprint(os.system('ls /'))" }));
    expect(system.stdout).toBe("32512\n"); // "command not found" as a wait status
    expect(system.stderr).toBe("Processes cannot be started in the code sandbox (ls /).\n");
    const fork = await run({ code: "import os\nos.fork()" });
    expect(fork.outcome).toBe("failed");
    expect(fork.stderr.trimEnd().split("\n").at(-1)).toBe(
      "OSError: [Errno 52] Function not implemented",
    );
    const sub = await run({ code: "import subprocess\nsubprocess.run(['ls'])" });
    expect(sub.outcome).toBe("failed");
    expect(sub.stderr.trimEnd().split("\n").at(-1)).toBe(
      "OSError: [Errno 138] emscripten does not support processes.",
    );
  }, 120_000);

  it("reads none of the host's files", async () => {
    const py = await healthDuring(run({ code: "print(open('/etc/passwd').read())" }));
    expect(py.outcome).toBe("failed");
    expect(py.stderr.trimEnd().split("\n").at(-1)).toBe(
      "FileNotFoundError: [Errno 44] No such file or directory: '/etc/passwd'",
    );
    const js = await run({ language: "javascript", code: "readFile('/etc/passwd')" });
    expect(js.outcome).toBe("failed");
    expect(js.stderr.split("\n")[0]).toBe("Error: No such file: /etc/passwd");
  }, 120_000);

  it("reaches no JavaScript from Python", async () => {
    // `pyodide.code` is refused at its package, `pyodide`.
    for (const [module, refused] of [
      ["js", "js"],
      ["pyodide_js", "pyodide_js"],
      ["pyodide.code", "pyodide"],
    ]) {
      const r = await run({ code: `import ${module}` });
      expect(r.outcome).toBe("failed");
      expect(r.stderr.trimEnd().split("\n").at(-1)).toBe(
        `ImportError: module '${refused}' is not available in the code sandbox`,
      );
    }
  }, 120_000);

  it("makes no network request", async () => {
    const py = await healthDuring(
      run({ code: `import urllib.request\nurllib.request.urlopen('http://127.0.0.1:${port}/')` }),
    );
    expect(py.outcome).toBe("failed");
    expect(py.stderr.trimEnd().split("\n").at(-1)).toBe(
      "urllib.error.URLError: <urlopen error [Errno 23] Host is unreachable>",
    );
    const socket = await run({
      code: `import socket\nsocket.create_connection(('127.0.0.1', ${port}))`,
    });
    expect(socket.outcome).toBe("failed");
    expect(socket.stderr.trimEnd().split("\n").at(-1)).toBe(
      "OSError: [Errno 23] Host is unreachable",
    );
    const js = await run({
      language: "javascript",
      code: "console.log(typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof require)",
    });
    expect(js.stdout).toBe("undefined undefined undefined undefined\n");
    expect(hits).toBe(0);
  }, 120_000);

  it("stops 100 MB of output at the 1 MB cap", async () => {
    const once = await healthDuring(run({ code: "print('x' * 100_000_000)" }));
    expect(once.outcome).toBe("output_limit");
    expect(once.error).toBe("Stopped: the run printed more than 1 MB of output.");
    expect(once.stdout.length).toBeLessThanOrEqual(1024 * 1024);
    const loop = await run({ code: "while True:\n    print('y' * 1000)" });
    expect(loop.outcome).toBe("output_limit");
    expect(loop.stdout.length).toBeLessThanOrEqual(1024 * 1024);
    const js = await run({
      language: "javascript",
      code: "for (;;) console.log('z'.repeat(1000))",
    });
    expect(js.outcome).toBe("output_limit");
  }, 120_000);
});
