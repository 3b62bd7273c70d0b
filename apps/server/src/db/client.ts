import type { Worker } from "node:worker_threads";
import type pg from "pg";
import { migrationScript } from "./migrate";
import { createPgliteDb } from "./pglite-client";
import { prepareDataDir } from "./prepare-data-dir";
import { preparedName } from "./prepared";
import { toNumber } from "./to-number";

export { prepared } from "./prepared";

/**
 * One small seam over both databases: PGlite embedded (the default) and PostgreSQL (with
 * DATABASE_URL). Services write plain parameterised SQL against this and never know which
 * one is behind it.
 */
export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** PostgreSQL's URL, for what needs connections of its own (the run queue). */
  readonly connectionString?: string;
  /**
   * One round trip for a health check. On PostgreSQL it has a connection of its own, so a
   * load balancer's readiness check never queues behind the runs' writes in the pool.
   */
  ping(): Promise<void>;
  /** Runs `fn` in one transaction; it commits when `fn` resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres:// URL; absent means embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; absent means in memory. */
  dataDir?: string | undefined;
  /** PostgreSQL schema to use (tests isolate each file in its own). */
  schema?: string | undefined;
  maxConnections?: number;
  /**
   * The embedded database's thread, started before the options were known (main.ts,
   * pglite-client.ts `startPgliteThread`); without it, PGlite starts its own.
   */
  embeddedThread?: Worker | undefined;
}

const isoTimestampStatements = new Set<string>();

/**
 * Marks a statement whose timestamptz columns every consumer only formats as ISO 8601: on
 * PostgreSQL they arrive as that text, without a Date parsed and formatted again per value
 * (two per row of a sessions page). PGlite still gives Dates; `isoTimestamp` takes either.
 */
export function isoTimestamps(sql: string): string {
  isoTimestampStatements.add(sql);
  return sql;
}

/** A timestamptz column as `Date.prototype.toISOString` writes it, from either database. */
export function isoTimestamp(value: Date | string): string {
  return typeof value === "string" ? value : value.toISOString();
}

/** A nullable timestamptz column, as `isoTimestamp`. */
export function isoTimestampOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoTimestamp(value);
}

// PostgreSQL's text for a UTC timestamptz, as a column (`2026-11-23 15:30:27.774158+00`) or
// inside JSON (`2026-11-23T15:30:27.774158+00:00`); other offsets, infinity and BC take the
// Date path.
const UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00(?::00)?$/;

/** Truncates to milliseconds, as the driver's Date does (checked for every microsecond). */
export function timestampText(parseDate: (text: string) => Date) {
  return (text: string): string => {
    const utc = UTC_TIMESTAMP.exec(text);
    if (!utc) return parseDate(text).toISOString();
    return `${utc[1]}T${utc[2]}.${(utc[3] ?? "").padEnd(3, "0").slice(0, 3)}Z`;
  };
}

export async function createDb(options: DbOptions): Promise<Db> {
  if (!options.databaseUrl) return createPglite(options);
  await options.embeddedThread?.terminate();
  return createPostgres(options);
}

/**
 * A table scan starts at the first block, not where the last scan of the table stopped: a
 * search's bounded pool of matches is the first ones in storage order, so the same query
 * ranks the same pool every time, on either database (decision 081).
 */
const SEARCH_CONF = "synchronize_seqscans=off";

/**
 * PostgreSQL's default 128 MB of shared buffers is sized for a dedicated server; an embedded,
 * single-connection database reads through the OS page cache just as well, and the smaller
 * pool keeps an idle Cohort process well under 200 MB.
 */
const PGLITE_CONF = `shared_buffers=8MB\n${SEARCH_CONF}`;

async function createPglite(options: DbOptions): Promise<Db> {
  if (options.dataDir) prepareDataDir(options.dataDir, PGLITE_CONF, migrationScript());
  return createPgliteDb({ dataDir: options.dataDir, conf: PGLITE_CONF }, options.embeddedThread);
}

async function createPostgres(options: DbOptions): Promise<Db> {
  // The driver loads only when DATABASE_URL is set; embedded instances never pay for it.
  const { default: pg } = await import("pg");
  pg.types.setTypeParser(pg.types.builtins.INT8, toNumber);
  pg.types.setTypeParser(pg.types.builtins.NUMERIC, toNumber);
  const TIMESTAMPTZ = pg.types.builtins.TIMESTAMPTZ;
  const isoText = timestampText(pg.types.getTypeParser(TIMESTAMPTZ) as (text: string) => Date);
  const isoTypes = {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === TIMESTAMPTZ && format !== "binary"
        ? isoText
        : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.maxConnections ?? 10,
    options: [
      `-c ${SEARCH_CONF}`,
      ...(options.schema ? [`-c search_path=${options.schema}`] : []),
    ].join(" "),
  });
  // A client's error (e.g. the server restarting) must not crash the process, whether the
  // client is idle or checked out (a transaction in flight): the next query reports it
  // through the health check and the request that needed it, and the pool replaces a client
  // that is no longer usable when it comes back.
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  const run = async <R>(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]) => {
    const name = preparedName(sql);
    const types = isoTimestampStatements.has(sql) ? isoTypes : undefined;
    const result = await (name || types
      ? client.query({ name, text: sql, values: params as unknown[], types })
      : client.query(sql, params as unknown[]));
    return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
  };
  // Health checks: one connection of their own, opened on the first check.
  const probePool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: 1,
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: 5_000,
  });
  probePool.on("error", () => {});
  probePool.on("connect", (client) => {
    client.on("error", () => {});
  });
  return {
    kind: "postgres",
    connectionString: options.databaseUrl as string,
    ping: async () => {
      await probePool.query("SELECT 1");
    },
    query: (sql, params) => run(pool, sql, params),
    transaction: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn({
          query: (sql, params) => run(client, sql, params),
          exec: async (sql) => {
            await client.query(sql);
          },
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: async () => {
      await Promise.all([pool.end(), probePool.end()]);
    },
  };
}

/** A statement refused by a unique index (SQLSTATE 23505), from either database. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "23505";
}
