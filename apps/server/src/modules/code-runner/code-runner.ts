import type { CodeRunnerConfig } from "../../config";
import { JupyterRunner } from "./jupyter-runner";
import { CodeSandbox, type SandboxJob, type SandboxResult } from "./sandbox";
import { readScratch, writeScratch } from "./scratch-files";

/**
 * run_code (decision 062): the embedded sandbox, or the operator's Jupyter server when
 * JUPYTER_URL is set. One per app; `close` ends its waiting sandboxes.
 */
export class CodeRunner {
  readonly sandbox: CodeSandbox;
  private readonly jupyter: JupyterRunner | null;

  constructor(private readonly config: CodeRunnerConfig) {
    const limits = {
      timeoutMs: config.timeoutMs,
      memoryBytes: config.memoryBytes,
      outputBytes: config.outputBytes,
    };
    this.sandbox = new CodeSandbox(limits, { warm: config.warm });
    this.jupyter = config.jupyter ? new JupyterRunner(config.jupyter, limits) : null;
  }

  get runner(): "embedded" | "jupyter" {
    return this.jupyter ? "jupyter" : "embedded";
  }

  /**
   * Runs `job` with the files of `scratchDir` and writes the ones it creates back there (the
   * embedded sandbox); a Jupyter kernel works in a folder named for `folder` on its server.
   */
  async run(
    job: SandboxJob,
    scratch: { dir: string; folder: string },
    signal?: AbortSignal,
  ): Promise<SandboxResult> {
    // The Jupyter server runs Python; JavaScript and TypeScript stay in the embedded sandbox.
    if (this.jupyter && job.language === "python") {
      return this.jupyter.run(job, scratch.folder, signal);
    }
    const { files } = await readScratch(scratch.dir);
    const result = await this.sandbox.run({ ...job, files }, signal);
    const { written } = await writeScratch(scratch.dir, result.files);
    return { ...result, files: written };
  }

  /** Hundredths of a credit for a run: per started second of execution, one at least. */
  price(durationMs: number): number {
    // Never above the hold: a run stopped at its limit ends a moment after it.
    const seconds = Math.min(durationMs, this.config.timeoutMs) / 1000;
    return Math.max(1, Math.ceil(seconds)) * this.config.pricePerSecond;
  }

  /** The hold before a run: its whole time limit. */
  get hold(): number {
    return Math.max(1, Math.ceil(this.config.timeoutMs / 1000)) * this.config.pricePerSecond;
  }

  close(): void {
    this.sandbox.close();
  }
}
