import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { DestinationStream } from "pino";
import { afterAll, beforeAll } from "vitest";
import { buildApp } from "../../src/app";
import { type AppConfig, ConfigError, type Env, loadConfig } from "../../src/config";
import { createDb, type Db } from "../../src/db/client";
import { migrate } from "../../src/db/migrate";
import { migrations } from "../../src/db/migrations";
import type { HostResolver } from "../../src/platform/ssrf";

/** Which database this test run targets: the vitest project sets COHORT_TEST_DB. */
export const testDbKind = process.env.COHORT_TEST_DB === "postgres" ? "postgres" : "pglite";
const postgresUrl = process.env.TEST_DATABASE_URL;
const redisUrl = testDbKind === "postgres" ? process.env.TEST_REDIS_URL : undefined;

export interface TestDb {
  db: Db;
  drop(): Promise<void>;
}

/**
 * A fresh database: a new database on the test PostgreSQL, copied from a migrated template
 * (below), or a PGlite data directory. PGlite's is copied from the migrated template every
 * `npm start` uses too (prepare-data-dir.ts: ~1.4 s instead of ~3.6 s for initdb and every
 * migration in memory, per app). `{ empty: true }` gives an unmigrated one, for migration
 * tests: in memory on PGlite, a copy of template0 on PostgreSQL.
 */
export async function createTestDb(options: { empty?: boolean } = {}): Promise<TestDb> {
  if (testDbKind === "pglite" || !postgresUrl) {
    if (options.empty) {
      const db = await createDb({});
      return { db, drop: () => db.close() };
    }
    const dataDir = mkdtempSync(path.join(tmpdir(), "cohort-testdb-"));
    const db = await createDb({ dataDir });
    return {
      db,
      drop: async () => {
        await db.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `t_${randomBytes(6).toString("hex")}`;
  const server = await postgresServer(postgresUrl);
  const template = options.empty ? "template0" : await migratedTemplate(server, postgresUrl);
  await server.exec(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  const db = await createDb({ databaseUrl: databaseUrl(postgresUrl, name), maxConnections: 20 });
  return {
    db,
    drop: async () => {
      await db.close();
      await server.exec(`DROP DATABASE ${name} WITH (FORCE)`);
    },
  };
}

/** `url` with another database name. */
function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** One connection to the test server's own database per test process, for CREATE/DROP DATABASE. */
let server: Promise<Db> | undefined;
function postgresServer(url: string): Promise<Db> {
  server ??= createDb({ databaseUrl: url, maxConnections: 1 });
  return server;
}

let template: Promise<string> | undefined;

/**
 * The name of a database with every migration applied, made once per set of migrations and
 * copied for each test (CREATE DATABASE … TEMPLATE). Each test used to get an empty schema
 * that its app migrated: ~0.7 s of PostgreSQL's CPU per app for the DDL and DROP SCHEMA
 * CASCADE, for ~160 apps per run, where the copy is ~0.15 s. The test processes share the
 * server: an advisory lock makes the first one build it and the others wait for it. A
 * template is named by its migrations, so a changed migration gets a new one.
 */
function migratedTemplate(server: Db, url: string): Promise<string> {
  template ??= (async () => {
    const hash = createHash("sha256");
    for (const m of migrations) hash.update(m.id).update("\0").update(m.sql).update("\0");
    const name = `cohort_test_template_${hash.digest("hex").slice(0, 16)}`;
    await server.query("SELECT pg_advisory_lock(hashtext('cohort_test_template'))");
    try {
      const { rows } = await server.query<{ ready: boolean }>(
        "SELECT datistemplate AS ready FROM pg_database WHERE datname = $1",
        [name],
      );
      if (rows[0]?.ready) return name;
      // Left half-made by a process that stopped: made again.
      if (rows[0]) await server.exec(`DROP DATABASE ${name} WITH (FORCE)`);
      await server.exec(`CREATE DATABASE ${name} TEMPLATE template0`);
      const db = await createDb({ databaseUrl: databaseUrl(url, name), maxConnections: 1 });
      try {
        await migrate(db);
      } finally {
        await db.close();
      }
      await server.exec(`ALTER DATABASE ${name} IS_TEMPLATE true`);
      return name;
    } finally {
      await server.query("SELECT pg_advisory_unlock(hashtext('cohort_test_template'))");
    }
  })();
  return template;
}

/** A minimal built web app, so SPA serving is tested without running the real build. */
export function createWebDistFixture(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cohort-web-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(
    path.join(dir, "index.html"),
    '<!doctype html><html><head><title>Cohort</title></head><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>',
  );
  writeFileSync(path.join(dir, "assets", "app.js"), "console.log('cohort');");
  writeFileSync(path.join(dir, "robots.txt"), "User-agent: *\nAllow: /\n");
  return dir;
}

export const TEST_COOKIE_SECRET = "test-cookie-secret-that-is-long-enough-0123456789";

export function testConfig(env: Env = {}) {
  return loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "cohort-data-")),
    COOKIE_SECRET: TEST_COOKIE_SECRET,
    ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    WEB_DIST_DIR: createWebDistFixture(),
    RATE_LIMIT_PER_MINUTE: "100000",
    SIGNUP_LIMIT_PER_HOUR: "100000",
    // A model server on this machine's usual ports must not join a test's catalogue.
    LOCAL_MODEL_DISCOVERY: "0",
    // Most tests are about money on simulated runs: they charge (decision 053). A test of the
    // free default passes SIMULATOR_CHARGES: "0".
    SIMULATOR_CHARGES: "1",
    // Word by word without pauses: a test that acts while a lane streams sets its own pace
    // (decision 093).
    SIMULATOR_TOKENS_PER_SECOND: "0",
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...env,
  });
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  close(): Promise<void>;
}

/**
 * Builds the real app on a fresh database. Call `app.ready()` (or inject) after adding any
 * test-only routes.
 */
export async function createTestApp(
  env: Env = {},
  options: { logStream?: DestinationStream; resolveHost?: HostResolver } = {},
): Promise<TestApp> {
  const testDb = await createTestDb();
  const app = await buildApp(testConfig(env), {
    db: testDb.db,
    redisPrefix: `test:${randomBytes(6).toString("hex")}:`,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  });
  return {
    app,
    db: testDb.db,
    close: async () => {
      await app.close();
      await testDb.drop();
    },
  };
}

/**
 * Another app instance on a database that is already in use: a restart, or a second instance
 * beside the first. Its Redis prefix is its own, so it shares only the database.
 */
export function startInstance(config: AppConfig, db: Db): Promise<FastifyInstance> {
  return buildApp(config, { db, redisPrefix: `test:${randomBytes(4).toString("hex")}:` });
}

/** Listens on a free loopback port, for real sockets and HTTP clients; returns its origin. */
export function listenLocally(app: FastifyInstance): Promise<string> {
  return app.listen({ port: 0, host: "127.0.0.1" });
}

/**
 * For a describe block about restarts: one database for the block, and `start()` builds an
 * instance on it (the first, or the one after a restart) with this file's `env`.
 */
export function restartableInstances(env: Env = {}): { start(): Promise<FastifyInstance> } {
  let testDb: TestDb | undefined;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(() => testDb?.drop());
  return {
    start: () => {
      if (!testDb) throw new Error("start() runs inside a test of the block");
      return startInstance(testConfig(env), testDb.db);
    },
  };
}

/**
 * One ready app for the enclosing describe block: built before its tests, closed after them.
 * Read `app` and `db` inside the block's tests and hooks (its hooks run after this one's).
 */
export function appForBlock(env: Env = {}): Omit<TestApp, "close"> {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await createTestApp(env);
    await current.app.ready();
  });
  afterAll(() => current?.close());
  const started = (): TestApp => {
    if (!current) throw new Error("the block's app is read inside its tests and hooks");
    return current;
  };
  return {
    get app() {
      return started().app;
    },
    get db() {
      return started().db;
    },
  };
}

/** `appForBlock`, listening on a loopback port for real sockets and HTTP clients: `url` is its origin. */
export function listeningAppForBlock(
  env: Env = {},
): Omit<TestApp, "close"> & { readonly url: string } {
  const block = appForBlock(env);
  let origin: string | undefined;
  beforeAll(async () => {
    origin = await listenLocally(block.app);
  });
  return {
    get app() {
      return block.app;
    },
    get db() {
      return block.db;
    },
    get url() {
      if (!origin) throw new Error("the block's url is read inside its tests and hooks");
      return origin;
    },
  };
}

/** The message of the ConfigError that this test setup plus `env` stops start-up with. */
export function configErrorOf(env: Env): string {
  try {
    testConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
}
