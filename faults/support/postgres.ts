import { execFile, execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../../e2e/support/server";
import type { FaultTools } from "./find-fault-tools.mjs";

const run = promisify(execFile);

type Tools = Extract<FaultTools, { ok: true }>;

/**
 * A PostgreSQL server of the test file's own (initdb + pg_ctl in a temporary directory, on a
 * free port), so a test can restart or stop it without touching the shared one on 5432. Made
 * with initdb and pg_ctl rather than pg_createcluster: the same server, ~2 s instead of ~8 s
 * per file here (Debian's wrapper adds its bookkeeping and a sync). Durability settings are
 * off: the tests restart it cleanly (fast shutdown), they never crash the machine.
 */
export class PrivatePostgres {
  private constructor(
    private readonly tools: Tools,
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return path.join(this.dir, "data");
  }

  static async start(tools: Tools): Promise<PrivatePostgres> {
    const dir = mkdtempSync(path.join(tmpdir(), "cohort-fault-pg-"));
    if (tools.owner) chownSync(dir, tools.owner.uid, tools.owner.gid);
    const server = new PrivatePostgres(tools, dir, await freePort());
    await server.pg(tools.initdb, [
      "-D",
      server.dataDir,
      "-U",
      "postgres",
      "--auth=trust",
      "--no-sync",
      "--encoding=UTF8",
      "--locale=C",
    ]);
    const options = [
      `-p ${server.port}`,
      `-k ${dir}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
    ].join(" ");
    await server.ctl(["start", "-o", options, "-l", path.join(dir, "server.log")]);
    return server;
  }

  /** What `pg_ctlcluster <version> <name> restart` does: a fast shutdown, then a start. */
  restart(): Promise<void> {
    // The log file again: else the new server would write to (and hold open) our pipes.
    return this.ctl(["restart", "-m", "fast", "-l", path.join(this.dir, "server.log")]);
  }

  async drop(): Promise<void> {
    await this.ctl(["stop", "-m", "immediate"]).catch(() => {});
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** What drop() does, synchronously (a test process ending without its afterAll). */
  dropNow(): void {
    const [command, ...prefix] = [...this.tools.runAs, this.tools.pgCtl];
    try {
      execFileSync(command as string, [...prefix, "-D", this.dataDir, "-m", "immediate", "stop"], {
        stdio: "ignore",
        timeout: 10_000,
        cwd: this.dir,
      });
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The server's own log, for a failure's message. */
  log(): string {
    try {
      return readFileSync(path.join(this.dir, "server.log"), "utf8");
    } catch {
      return "";
    }
  }

  /** One statement on a connection of its own (which a restart cannot leave broken). */
  async query<R extends object>(sql: string, params: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      return (await client.query<R>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  private ctl(args: string[]): Promise<void> {
    return this.pg(this.tools.pgCtl, ["-D", this.dataDir, "-w", "-t", "30", ...args]);
  }

  private async pg(binary: string, args: string[]): Promise<void> {
    const [command, ...prefix] = [...this.tools.runAs, binary];
    await run(command as string, [...prefix, ...args], { timeout: 60_000, cwd: this.dir });
  }
}
