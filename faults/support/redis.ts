import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { freePort } from "../../e2e/support/server";
import { within } from "./wait";

/**
 * A redis-server child of the test file's own on a free port, without persistence, which a
 * test stops and starts again on the same port (the instances' clients reconnect to it).
 */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  private output = "";

  private constructor(
    private readonly binary: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(binary: string): Promise<PrivateRedis> {
    const redis = new PrivateRedis(binary, await freePort());
    await redis.startAgain();
    return redis;
  }

  get running(): boolean {
    return this.child !== null;
  }

  async startAgain(): Promise<void> {
    if (this.child) throw new Error("redis-server is already running");
    const child = spawn(
      this.binary,
      ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    this.child = child;
    this.output = "";
    const ready = new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        this.output += chunk.toString();
        if (this.output.includes("Ready to accept connections")) resolve();
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
      child.once("exit", (code) =>
        reject(new Error(`redis-server exited (${code}) before it was ready:\n${this.output}`)),
      );
    });
    await within(10_000, "redis-server to accept connections", ready);
  }

  killNow(): void {
    this.child?.kill("SIGKILL");
    this.child = null;
  }

  /** Stops it (SIGTERM; SIGKILL after 5 s) and waits for the process to end. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
