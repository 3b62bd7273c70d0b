import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TReadiness } from "@cohort/contracts";
import { freePort } from "../../e2e/support/server";
import { waitFor, within } from "./wait";

const root = path.resolve(import.meta.dirname, "../..");
/** How much of an instance's log is kept for a failure's message. */
const LOG_KEPT = 400_000;

/**
 * One instance of the built server, started as the Dockerfile starts it
 * (`node apps/server/dist/main.js`) with the cluster's shared settings and a port of its own.
 */
export class Instance {
  private output = "";
  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly dataDir: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.output += chunk.toString();
      if (this.output.length > LOG_KEPT) this.output = this.output.slice(-LOG_KEPT / 2);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts it and waits until it is ready (its migrations done, its database reachable). */
  static async start(name: string, env: Record<string, string>): Promise<Instance> {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), `cohort-fault-${name}-`));
    const child = spawn(process.execPath, [path.join(root, "apps/server/dist/main.js")], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        LOG_FORMAT: "json",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const instance = new Instance(name, port, child, dataDir);
    try {
      await instance.waitReady();
    } catch (error) {
      instance.killNow();
      throw error;
    }
    return instance;
  }

  async readiness(): Promise<{ status: number; body: TReadiness }> {
    if (!this.running) throw new Error(`${this.name} is not running (${this.state})`);
    const response = await fetch(`${this.url}/api/health/ready`, {
      signal: AbortSignal.timeout(5_000),
    });
    return { status: response.status, body: (await response.json()) as TReadiness };
  }

  waitReady(ms = 60_000): Promise<TReadiness> {
    return waitFor(
      ms,
      `readiness of ${this.name}`,
      async () => {
        if (!this.running) throw new Error(`${this.name} exited:\n${this.log()}`);
        const { status, body } = await this.readiness();
        return status === 200 ? body : undefined;
      },
      { describe: () => this.log().slice(-4_000) },
    );
  }

  /** A crash: SIGKILL, no shutdown of any kind. */
  async kill(): Promise<void> {
    if (!this.running) return;
    const exited = once(this.child, "exit");
    this.child.kill("SIGKILL");
    await within(5_000, `exit of ${this.name} after SIGKILL`, exited);
  }

  /** A graceful stop (SIGTERM: drain, then close); SIGKILL when it takes longer than `ms`. */
  async terminate(ms = 15_000): Promise<void> {
    if (!this.running) return;
    const exited = once(this.child, "exit");
    this.child.kill("SIGTERM");
    try {
      await within(ms, `exit of ${this.name} after SIGTERM`, exited);
    } catch (error) {
      await this.kill();
      throw error;
    }
  }

  /** How it ended ("running" while it runs). */
  get state(): string {
    if (this.running) return "running";
    return this.child.signalCode
      ? `killed by ${this.child.signalCode}`
      : `exited ${this.child.exitCode}`;
  }

  killNow(): void {
    if (this.running) this.child.kill("SIGKILL");
    this.removeData();
  }

  /** Its data directory, once it has stopped. */
  removeData(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  log(): string {
    return this.output;
  }

  /** The JSON log lines at `minLevel` (pino's numbers: 40 warn, 50 error) or above. */
  logLines(minLevel = 40): { level: number; msg: string; [key: string]: unknown }[] {
    return this.output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as { level: number; msg: string }];
        } catch {
          return [];
        }
      })
      .filter((line) => line.level >= minLevel);
  }
}
