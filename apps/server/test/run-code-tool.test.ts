import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolContext, ToolDefinition } from "../src/modules/tools/tool-definition";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { createSession } from "./support/runs";

/**
 * run_code as the tool registry offers it to a run (decision 062): risk, price, the text the
 * model reads, the data the UI shows, the per-second charge, files shared through the run's
 * scratch folder, and a limit reported as an error row.
 */
let t: TestApp;
let runCode: ToolDefinition;
let dir: string;

beforeAll(async () => {
  t = await createTestApp({ CODE_RUN_TIMEOUT_SECONDS: "4", CODE_RUN_CREDITS_PER_SECOND: "0.02" });
  const tools = await t.app.tools.toolsFor({ userId: "u1", workspaceId: null, sessionId: "s1" });
  runCode = tools.find((tool) => tool.name === "run_code") as ToolDefinition;
  dir = mkdtempSync(path.join(tmpdir(), "cohort-run-code-"));
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ctx = (): ToolContext => ({
  runId: "00000000-0000-4000-8000-000000000001",
  sessionId: "s1",
  workspaceId: null,
  userId: "u1",
  stepId: "s1",
  role: "coder",
  callId: "call-1",
  signal: new AbortController().signal,
  log: t.app.log,
  scratchDir: async () => dir,
});

describe("the run_code tool", () => {
  it("is offered as a costly built-in, held for its whole time limit", () => {
    expect(runCode).toMatchObject({
      name: "run_code",
      title: "Run code",
      risk: "costly",
      source: { kind: "builtin" },
      price: 8,
      untrustedOutput: false,
    });
  });

  it("runs code, charges per started second, and leaves its files for the next call", async () => {
    const first = await runCode.execute(
      {
        language: "python",
        code: "open('report.txt', 'w').write('total: 42')\nprint('written')",
        run_tests: false,
      },
      ctx(),
    );
    const lines = first.text.split("\n");
    expect(lines[0]).toMatch(/^Ran python: exit status 0 in \d+\.\d\d s\.$/);
    expect(lines.slice(1)).toEqual([
      "stdout:",
      "written",
      "",
      "Files written to the run's scratch folder: report.txt (9 bytes).",
    ]);
    expect(first.creditsUsed).toBe(2);
    expect(first.isError).toBe(false);
    expect(first.data).toMatchObject({
      runner: "embedded",
      language: "python",
      outcome: "completed",
      exit_code: 0,
      stdout: "written\n",
      stderr: "",
      checks: null,
      files: [{ name: "report.txt", bytes: 9 }],
      error: null,
    });
    expect(readFileSync(path.join(dir, "report.txt"), "utf8")).toBe("total: 42");
    const second = await runCode.execute(
      {
        language: "typescript",
        code: "const s: string = readFile('report.txt');\nconsole.log(s.toUpperCase());",
        run_tests: false,
      },
      ctx(),
    );
    expect(second.data).toMatchObject({ outcome: "completed", stdout: "TOTAL: 42\n" });
  }, 120_000);

  it("runs the tests and says what passed and failed", async () => {
    const out = await runCode.execute(
      {
        language: "python",
        code: "def test_ok():\n    assert True\ndef test_overdue_fine():\n    assert 1 == 2",
        run_tests: true,
      },
      ctx(),
    );
    expect(out.text).toContain("Ran 2 checks: 1 passed, 1 failed (test_overdue_fine).");
    expect(out.text).toContain("FAILED test_overdue_fine: AssertionError");
    expect(out.data).toMatchObject({
      outcome: "failed",
      exit_code: 1,
      checks: { ran: 2, passed: 1, failed: 1, failures: ["test_overdue_fine"] },
    });
  }, 120_000);

  it("reports a limit as an error row the model hears", async () => {
    const out = await runCode.execute(
      { language: "javascript", code: "for (;;) {}", run_tests: false },
      ctx(),
    );
    expect(out.isError).toBe(true);
    expect(out.text.split("\n")[0]).toMatch(
      /^Ran javascript in \d+\.\d\d s\. Stopped after 4 s: the time limit of a run\.$/,
    );
    expect(out.creditsUsed).toBe(8);
    const health = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(health.statusCode).toBe(200);
  }, 120_000);

  it("keeps the files it writes for download, for the session's readers only", async () => {
    const owner = await signUp(t.app);
    const stranger = await signUp(t.app);
    const session = await createSession(owner.client);
    const filesDir = mkdtempSync(path.join(tmpdir(), "cohort-run-code-files-"));
    try {
      const out = await runCode.execute(
        {
          language: "python",
          code: [
            "open('report.csv', 'w').write('name,total\\nada,42\\n')",
            "import os",
            "os.makedirs('out', exist_ok=True)",
            "open('out/résumé notes.txt', 'w').write('été')",
            "open('data.bin', 'wb').write(bytes(range(8)))",
          ].join("\n"),
          run_tests: false,
        },
        {
          ...ctx(),
          sessionId: session.id,
          userId: owner.user.id,
          scratchDir: async () => filesDir,
        },
      );
      expect(out.data).toMatchObject({ outcome: "completed" });
      const files = [...(out.files ?? [])].sort((a, b) => a.name.localeCompare(b.name));
      expect(files.map((f) => [f.name, f.mediaType, f.bytes])).toEqual([
        ["data.bin", "application/octet-stream", 8],
        ["out/résumé notes.txt", "text/plain; charset=utf-8", 5],
        ["report.csv", "text/csv; charset=utf-8", 18],
      ]);
      for (const file of files) expect(file.url).toMatch(/^\/api\/code-files\/[0-9a-f-]{36}$/);
      const [bin, notes, csv] = files;

      const download = await owner.client.get(csv?.url ?? "");
      expect(download.statusCode).toBe(200);
      expect(download.body).toBe("name,total\nada,42\n");
      expect(download.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(download.headers["content-disposition"]).toBe(
        `attachment; filename="report.csv"; filename*=UTF-8''report.csv`,
      );
      expect(download.headers["x-content-type-options"]).toBe("nosniff");
      expect(download.headers["content-security-policy"]).toBe("default-src 'none'; sandbox");
      const named = await owner.client.get(notes?.url ?? "");
      expect(named.headers["content-disposition"]).toBe(
        `attachment; filename="r_sum_notes.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20notes.txt`,
      );
      expect(named.body).toBe("été");
      const binary = await owner.client.get(bin?.url ?? "");
      expect([...binary.rawPayload]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

      // Anyone who may not read the session: the one 404, as for a file that never existed.
      const theirs = await stranger.client.get(csv?.url ?? "");
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().error.code).toBe("not_found");
      const missing = await owner.client.get(`/api/code-files/${crypto.randomUUID()}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe(theirs.json().error.message);
      expect((await owner.client.get("/api/code-files/not-an-id")).statusCode).toBe(404);
      const anonymous = await t.app.inject({ method: "GET", url: csv?.url ?? "" });
      expect(anonymous.statusCode).toBe(401);
    } finally {
      rmSync(filesDir, { recursive: true, force: true });
    }
  }, 120_000);
});
