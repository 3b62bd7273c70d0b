import { randomUUID } from "node:crypto";
import { stripVTControlCharacters } from "node:util";
import WebSocket from "ws";
import { PYTHON_CHECKS } from "./python-checks";
import type {
  SandboxChecks,
  SandboxJob,
  SandboxLimits,
  SandboxOutcome,
  SandboxResult,
} from "./sandbox";

/**
 * run_code on an operator's Jupyter server (decision 062): the kernels REST API and the
 * kernel channels websocket (Jupyter messaging protocol 5.x). One fresh kernel per run, in a
 * folder of its own on the server (`cohort/<folder>`) that the next runs of the same Cohort
 * run reuse, so files written by one step are there for the next. Memory and the machine
 * are the operator's: Cohort enforces the time limit (interrupt, then shutdown) and the
 * output cap.
 */
export interface JupyterSettings {
  url: string;
  token: string | undefined;
  kernel: string;
}

const CHECKS_MARKER = "__COHORT_CHECKS__";

/** The test discovery (python-checks.ts), as a cell that prints its counts after a marker. */
const CHECKS_CELL = `${PYTHON_CHECKS}
import json as _cohort_json
print('${CHECKS_MARKER}' + _cohort_json.dumps(_cohort_checks(globals())))
del _cohort_json
`;

interface JupyterMessage {
  header: { msg_id: string; msg_type: string };
  parent_header: { msg_id?: string };
  channel?: string;
  content: Record<string, unknown>;
}

export class JupyterRunner {
  constructor(
    private readonly settings: JupyterSettings,
    private readonly limits: SandboxLimits,
  ) {}

  private async api(method: string, path: string, body?: unknown): Promise<Response> {
    const url = new URL(
      path,
      this.settings.url.endsWith("/") ? this.settings.url : `${this.settings.url}/`,
    );
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.settings.token) headers.authorization = `token ${this.settings.token}`;
    return fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  }

  /** `folder` names the run's working folder on the Jupyter server. */
  async run(job: SandboxJob, folder: string, signal?: AbortSignal): Promise<SandboxResult> {
    if (job.language !== "python") {
      return done(
        "failed",
        `The Jupyter server runs Python here; ${job.language} runs in the embedded sandbox.`,
      );
    }
    const started = performance.now();
    let kernelId: string;
    try {
      const created = await this.api("POST", "api/kernels", { name: this.settings.kernel });
      if (!created.ok) {
        return done(
          "crashed",
          `The Jupyter server refused to start a kernel (HTTP ${created.status}).`,
        );
      }
      kernelId = String(((await created.json()) as { id: unknown }).id);
    } catch (e) {
      return done(
        "crashed",
        `The Jupyter server could not be reached: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const startMs = Math.round(performance.now() - started);
    try {
      return await this.execute(kernelId, job, folder, startMs, signal);
    } finally {
      await this.api("DELETE", `api/kernels/${encodeURIComponent(kernelId)}`).catch(
        () => undefined,
      );
    }
  }

  private execute(
    kernelId: string,
    job: SandboxJob,
    folder: string,
    startMs: number,
    signal: AbortSignal | undefined,
  ): Promise<SandboxResult> {
    const base = new URL(
      this.settings.url.endsWith("/") ? this.settings.url : `${this.settings.url}/`,
    );
    base.protocol = base.protocol === "https:" ? "wss:" : "ws:";
    const session = randomUUID();
    const wsUrl = new URL(
      `api/kernels/${encodeURIComponent(kernelId)}/channels?session_id=${session}`,
      base,
    );
    const ws = new WebSocket(wsUrl, {
      headers: this.settings.token ? { authorization: `token ${this.settings.token}` } : {},
      // One stream message may batch much output; the cap is counted as it arrives.
      maxPayload: this.limits.outputBytes * 2 + 16 * 1024 * 1024,
    });
    const safeFolder = folder.replace(/[^A-Za-z0-9_-]/g, "_");
    const cells = [
      `import os as _cohort_os\n_cohort_os.makedirs('cohort/${safeFolder}', exist_ok=True)\n_cohort_os.chdir('cohort/${safeFolder}')\ndel _cohort_os`,
      job.code,
      ...(job.runTests ? [CHECKS_CELL] : []),
    ];
    return new Promise<SandboxResult>((resolve) => {
      let stdout = "";
      let stderr = "";
      let bytes = 0;
      let cell = -1;
      let msgId = "";
      let failed = false;
      let sentAt = 0;
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (
        outcome: SandboxOutcome,
        error: string | null,
        checks: SandboxChecks | null = null,
      ) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        ws.close();
        resolve({
          outcome,
          exitCode: outcome === "completed" ? 0 : outcome === "failed" ? 1 : null,
          stdout,
          stderr,
          durationMs: sentAt ? Math.round(performance.now() - sentAt) : 0,
          startMs,
          checks,
          files: [],
          error,
        });
      };
      const interruptAndFinish = (outcome: SandboxOutcome, error: string) => {
        void this.api("POST", `api/kernels/${encodeURIComponent(kernelId)}/interrupt`).catch(
          () => undefined,
        );
        finish(outcome, error);
      };
      const onAbort = () => interruptAndFinish("stopped", "The run was stopped.");
      signal?.addEventListener("abort", onAbort, { once: true });
      const sendNext = () => {
        cell += 1;
        if (cell >= cells.length) {
          const checks = job.runTests ? takeChecks() : null;
          const failedChecks = (checks?.failed ?? 0) > 0;
          finish(
            failed || failedChecks ? "failed" : "completed",
            failed ? "The code raised an error." : null,
            checks,
          );
          return;
        }
        if (cell === 1) {
          sentAt = performance.now();
          timer = setTimeout(
            () =>
              interruptAndFinish(
                "time_limit",
                `Stopped after ${this.limits.timeoutMs / 1000} s: the time limit of a run.`,
              ),
            this.limits.timeoutMs,
          );
        }
        msgId = randomUUID();
        ws.send(
          JSON.stringify({
            header: {
              msg_id: msgId,
              msg_type: "execute_request",
              username: "cohort",
              session,
              date: new Date().toISOString(),
              version: "5.3",
            },
            parent_header: {},
            metadata: {},
            channel: "shell",
            buffers: [],
            content: {
              code: cells[cell],
              silent: false,
              store_history: false,
              user_expressions: {},
              allow_stdin: false,
              stop_on_error: true,
            },
          }),
        );
      };
      const takeChecks = (): SandboxChecks | null => {
        const at = stdout.lastIndexOf(CHECKS_MARKER);
        if (at < 0) return null;
        const line = stdout.slice(at + CHECKS_MARKER.length).split("\n")[0] ?? "";
        stdout = stdout.slice(0, at);
        try {
          return JSON.parse(line) as SandboxChecks;
        } catch {
          return null;
        }
      };
      const append = (stream: "stdout" | "stderr", text: string) => {
        bytes += Buffer.byteLength(text);
        if (stream === "stdout") stdout += text;
        else stderr += text;
        if (bytes > this.limits.outputBytes) {
          const mb = this.limits.outputBytes / 1024 / 1024;
          interruptAndFinish(
            "output_limit",
            `Stopped: the run printed more than ${mb >= 1 ? `${Math.round(mb)} MB` : `${Math.round(this.limits.outputBytes / 1024)} KB`} of output.`,
          );
        }
      };
      ws.on("open", sendNext);
      ws.on("error", (e) => finish("crashed", `The Jupyter kernel's channel failed: ${e.message}`));
      ws.on("close", () =>
        finish("crashed", "The Jupyter kernel's channel closed before the run ended."),
      );
      ws.on("message", (raw) => {
        let m: JupyterMessage;
        try {
          m = JSON.parse(String(raw)) as JupyterMessage;
        } catch {
          return;
        }
        if (m.parent_header?.msg_id !== msgId) return;
        const type = m.header.msg_type;
        const c = m.content;
        // The first cell (the folder) says nothing unless it fails.
        if (type === "stream" && cell > 0)
          append(c.name === "stderr" ? "stderr" : "stdout", String(c.text ?? ""));
        else if ((type === "execute_result" || type === "display_data") && cell > 0) {
          const data = c.data as Record<string, unknown> | undefined;
          if (typeof data?.["text/plain"] === "string") append("stdout", `${data["text/plain"]}\n`);
        } else if (type === "error") {
          failed = true;
          const traceback = Array.isArray(c.traceback) ? (c.traceback as string[]).join("\n") : "";
          // Tracebacks carry ANSI colours for terminals.
          append("stderr", `${stripVTControlCharacters(traceback)}\n`);
        } else if (type === "status" && c.execution_state === "idle") {
          if (failed) finish("failed", "The code raised an error.");
          else sendNext();
        }
      });
    });
  }
}

function done(outcome: SandboxOutcome, error: string): SandboxResult {
  return {
    outcome,
    exitCode: null,
    stdout: "",
    stderr: "",
    durationMs: 0,
    startMs: 0,
    checks: null,
    files: [],
    error,
  };
}
