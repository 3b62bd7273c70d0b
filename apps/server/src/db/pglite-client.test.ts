import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db, isUniqueViolation, prepared } from "./client";
import { createPgliteDb, startPgliteThread } from "./pglite-client";

// Each embedded database is a new cluster (initdb: seconds on a busy 2-core machine).
const SLOW = 120_000;

describe("PGlite on its own thread", () => {
  let db: Db;
  beforeAll(async () => {
    db = await createDb({});
    await db.exec(`CREATE TABLE items (id serial PRIMARY KEY, name text UNIQUE NOT NULL);
      CREATE TABLE counter (n int NOT NULL); INSERT INTO counter VALUES (0);`);
  }, SLOW);
  afterAll(() => db?.close());

  it("returns rows as the server's thread reads them", async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT 9007199254740991::int8 AS big, 12.25::numeric AS amount, now() AS at,
        '\\x0102ff'::bytea AS bytes, '{"a":[1,"b"]}'::jsonb AS doc, ARRAY['x','y'] AS list,
        NULL::text AS nothing`,
    );
    expect(rows).toEqual([
      {
        big: 9007199254740991,
        amount: 12.25,
        at: expect.any(Date),
        bytes: new Uint8Array([1, 2, 255]),
        doc: { a: [1, "b"] },
        list: ["x", "y"],
        nothing: null,
      },
    ]);
    const inserted = await db.query("INSERT INTO items (name) VALUES ($1), ($2)", ["a", "b"]);
    expect(inserted.rowCount).toBe(2);
  });

  it("passes parameters of every kind the services send", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const { rows } = await db.query<{ at: Date; bytes: Uint8Array; n: number; list: string[] }>(
      "SELECT $1::timestamptz AS at, $2::bytea AS bytes, $3::int AS n, $4::text[] AS list",
      [at, Buffer.from([7, 8]), 42, ["p", "q"]],
    );
    expect(rows[0]).toEqual({ at, bytes: new Uint8Array([7, 8]), n: 42, list: ["p", "q"] });
  });

  it("gives errors their SQLSTATE code and fields", async () => {
    await db.query("INSERT INTO items (name) VALUES ('dup')");
    const duplicate = await db.query("INSERT INTO items (name) VALUES ('dup')").catch((e) => e);
    expect(duplicate).toBeInstanceOf(Error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(duplicate).toMatchObject({
      code: "23505",
      constraint: "items_name_key",
      table: "items",
      detail: "Key (name)=(dup) already exists.",
      message: 'duplicate key value violates unique constraint "items_name_key"',
    });
    await expect(db.query("SELEC 1")).rejects.toMatchObject({ code: "42601" });
    // A value that cannot cross to the thread fails its own statement only.
    await expect(db.query("SELECT $1::text", [() => 1])).rejects.toThrow();
    expect((await db.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("answers many statements sent without waiting, each with its own rows", async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) => db.query<{ i: number }>("SELECT $1::int AS i", [i])),
    );
    expect(answers.map((a) => a.rows[0]?.i)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it("runs concurrent transactions one after another", async () => {
    // Read, yield to the event loop, write what was read plus one: interleaved, updates
    // would be lost; serialised, every one counts.
    const increment = () =>
      db.transaction(async (tx) => {
        const { rows } = await tx.query<{ n: number }>("SELECT n FROM counter");
        await new Promise((resolve) => setImmediate(resolve));
        await tx.query("UPDATE counter SET n = $1", [(rows[0]?.n ?? 0) + 1]);
        return rows[0]?.n;
      });
    const seen = await Promise.all(Array.from({ length: 10 }, increment));
    expect([...seen].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await db.query("SELECT n FROM counter")).rows).toEqual([{ n: 10 }]);
  });

  it("queues a statement sent outside an open transaction behind it, without blocking it", async () => {
    await db.exec("CREATE TABLE journal (seq serial, what text)");
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO journal (what) VALUES ('first')");
      outside = db.query("INSERT INTO journal (what) VALUES ('outside')");
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.query("INSERT INTO journal (what) VALUES ('second')");
    });
    await outside;
    const { rows } = await db.query<{ what: string }>("SELECT what FROM journal ORDER BY seq");
    expect(rows.map((r) => r.what)).toEqual(["first", "second", "outside"]);
  });

  it("rolls back a transaction whose callback throws, and rethrows its error", async () => {
    const failure = new Error("stop here");
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO items (name) VALUES ('rolled back')");
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO items (name) VALUES ('also rolled back')");
        await tx.query("INSERT INTO items (name) VALUES ('dup')");
      }),
    ).rejects.toMatchObject({ code: "23505" });
    const { rows } = await db.query("SELECT name FROM items WHERE name LIKE '%rolled back'");
    expect(rows).toEqual([]);
    // The connection is free again.
    expect((await db.transaction((tx) => tx.query("SELECT 2 AS two"))).rows).toEqual([{ two: 2 }]);
  });
});

describe("prepared statements on PGlite", () => {
  let db: Db;
  beforeAll(async () => {
    db = await createDb({});
    await db.exec(`CREATE TABLE notes (id serial PRIMARY KEY, body text UNIQUE NOT NULL,
      doc jsonb, at timestamptz, big int8, flags bool[]);`);
  }, SLOW);
  afterAll(() => db?.close());

  const INSERT = prepared(
    "INSERT INTO notes (body, doc, at, big, flags) VALUES ($1, $2, $3, $4, $5) RETURNING *",
  );
  const BY_BODY = prepared("SELECT * FROM notes WHERE body = ANY($1::text[]) ORDER BY id");
  const TOUCH = prepared("UPDATE notes SET big = big + 1 WHERE body = $1");

  it("give the rows, parameters and counts the same statement gives unprepared", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const params = ["one", { a: [1, "b"] }, at, 9007199254740991, [true, false]];
    const first = await db.query(INSERT, params);
    const again = await db.query(INSERT, ["two", null, null, null, null]);
    expect(first.rows).toEqual([
      { id: 1, body: "one", doc: { a: [1, "b"] }, at, big: 9007199254740991, flags: [true, false] },
    ]);
    expect(again.rows).toEqual([
      { id: 2, body: "two", doc: null, at: null, big: null, flags: null },
    ]);
    // The same text without the mark runs through PGlite's own `query`.
    const plain = "SELECT * FROM notes WHERE body = ANY($1::text[]) ORDER BY id ";
    const bodies = [["one", "two"]];
    expect((await db.query(BY_BODY, bodies)).rows).toEqual((await db.query(plain, bodies)).rows);
    expect((await db.query(TOUCH, ["one"])).rowCount).toBe(1);
    expect((await db.query(TOUCH, ["none"])).rowCount).toBe(0);
    // Each was parsed once, under its name, and is only bound since.
    const { rows } = await db.query<{ statement: string }>(
      "SELECT statement FROM pg_prepared_statements ORDER BY statement",
    );
    expect(rows.map((r) => r.statement).sort()).toEqual([BY_BODY, INSERT, TOUCH].sort());
  });

  it("fail with their SQLSTATE, and the next run still works", async () => {
    await db.query(INSERT, ["dup", null, null, null, null]);
    const duplicate = await db.query(INSERT, ["dup", null, null, null, null]).catch((e) => e);
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(duplicate).toMatchObject({ constraint: "notes_body_key", table: "notes" });
    await expect(db.query(prepared("SELEC 1"))).rejects.toMatchObject({ code: "42601" });
    await expect(db.query(prepared("SELEC 1"))).rejects.toMatchObject({ code: "42601" });
    expect((await db.query(BY_BODY, [["dup"]])).rows).toHaveLength(1);
  });

  it("run inside a transaction and roll back with it; one outside waits for it", async () => {
    let outside: Promise<unknown> | undefined;
    await expect(
      db.transaction(async (tx) => {
        await tx.query(INSERT, ["in tx", null, null, 1, null]);
        outside = db.query(BY_BODY, [["in tx"]]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await tx.query(BY_BODY, [["in tx"]])).rows).toHaveLength(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(((await outside) as { rows: unknown[] }).rows).toEqual([]);
    await db.transaction(async (tx) => {
      await tx.query(INSERT, ["kept", null, null, 1, null]);
    });
    expect((await db.query(BY_BODY, [["kept", "in tx"]])).rows).toHaveLength(1);
  });
});

describe("the PGlite thread's life", () => {
  it(
    "closes cleanly: the data directory keeps what was written, later statements fail",
    async () => {
      const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "cohort-worker-")), "data");
      const first = await createDb({ dataDir });
      await first.exec("CREATE TABLE kept (v text)");
      await first.query("INSERT INTO kept VALUES ('still here')");
      await first.close();
      await first.close();
      await expect(first.query("SELECT 1")).rejects.toThrow("The embedded database is closed");
      const again = await createDb({ dataDir });
      try {
        expect((await again.query("SELECT v FROM kept")).rows).toEqual([{ v: "still here" }]);
      } finally {
        await again.close();
      }
      // A thread started before the data directory was known (main.ts) opens the one it is sent.
      const early = await createDb({ dataDir, embeddedThread: startPgliteThread() });
      try {
        expect((await early.query("SELECT v FROM kept")).rows).toEqual([{ v: "still here" }]);
      } finally {
        await early.close();
      }
    },
    SLOW,
  );

  it(
    "fails every pending and later statement with a clear error when its thread dies",
    async () => {
      // A thread with a small heap that is asked for more rows than fit really runs out.
      const db = await createPgliteDb(
        { dataDir: undefined, conf: "shared_buffers=8MB" },
        undefined,
        { maxOldGenerationSizeMb: 48 },
      );
      const huge = db.query("SELECT repeat('x', 1000) || i AS v FROM generate_series(1, 400000) i");
      const queued = db.query("SELECT 1");
      await expect(huge).rejects.toThrow(/^The embedded database stopped/);
      await expect(queued).rejects.toThrow(/^The embedded database stopped/);
      await expect(db.query("SELECT 1")).rejects.toThrow(/^The embedded database stopped/);
      await expect(db.transaction((tx) => tx.query("SELECT 1"))).rejects.toThrow(
        /^The embedded database stopped/,
      );
      await db.close();
    },
    SLOW,
  );
});
