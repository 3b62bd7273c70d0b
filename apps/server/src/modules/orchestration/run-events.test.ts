import type { TRunEvent } from "@cohort/contracts";
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import type { Realtime } from "../../platform/realtime";
import { createEventHub, createRunEventLog, readRunEvents, STORE_AFTER_MS } from "./run-events";

const SESSION = "00000000-0000-4000-8000-000000000001";
const RUN = "00000000-0000-4000-8000-000000000002";

/** A database whose event writes wait until the test lets them through. */
function fakeDb() {
  const stored: TRunEvent[] = [];
  const held: (() => void)[] = [];
  let holding = true;
  let counter = 0;
  const query = async (sql: string, params: unknown[] = []) => {
    if (sql.includes("SELECT last_seq")) return { rows: [{ last_seq: counter }], rowCount: 1 };
    if (sql.includes("SELECT seq, data")) {
      const after = params[1] as number;
      const rows = stored.filter((e) => e.seq > after).map(({ seq, ...data }) => ({ seq, data }));
      return { rows, rowCount: rows.length };
    }
    if (sql.includes("INSERT INTO run_events")) {
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      if (sql.includes("WITH ORDINALITY")) {
        // Store first (one session here): numbered by the counter, its highest answered.
        const batch = JSON.parse(params[0] as string) as TRunEvent[];
        const first = counter + 1;
        counter += batch.length;
        stored.push(...batch.map((e, i) => ({ ...e, seq: first + i })));
        return { rows: [{ session_id: SESSION, last_seq: counter }], rowCount: 1 };
      }
      // Send first: numbered events of any sessions, in one statement.
      const batch = JSON.parse(params[0] as string) as TRunEvent[];
      stored.push(...batch);
      counter = Math.max(counter, ...batch.map((e) => e.seq));
      return { rows: [], rowCount: batch.length };
    }
    throw new Error(`unexpected query: ${sql}`);
  };
  const db = { kind: "pglite", query, exec: async () => {} } as unknown as Db;
  /** Lets every write through from now on (`hold` stops them again). */
  const release = () => {
    holding = false;
    for (const resolve of held.splice(0)) resolve();
  };
  const hold = () => {
    holding = true;
  };
  /** How many writes wait; `releaseLast` lets the newest of them through alone. */
  const waiting = () => held.length;
  const releaseLast = () => held.pop()?.();
  return { db, stored, release, hold, waiting, releaseLast };
}

function fakeRealtime() {
  const sent: TRunEvent[] = [];
  const realtime = {
    io: { to: () => ({ emit: (_name: string, event: TRunEvent) => sent.push(event) }) },
  } as unknown as Realtime;
  return { realtime, sent };
}

const log = { error: () => {} };
const delta = (text: string) => ({ type: "final.delta", call_id: "c1", text }) as const;

describe("send first (one process)", () => {
  it("writes what waits for the next gathered write at once when flushed (a run's end)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const { db, stored, release } = fakeDb();
      release();
      const { realtime } = fakeRealtime();
      const deps = { db, realtime, log, events: createEventHub({ sendFirst: true }) };
      const events = createRunEventLog(deps, SESSION, RUN);
      void events.append(delta("a"));
      await vi.advanceTimersByTimeAsync(STORE_AFTER_MS);
      expect(stored.map((e) => e.seq)).toEqual([1]);
      // The next event waits for the gathering delay; a flush does not.
      void events.append(delta("b"));
      let flushed = false;
      const flushing = events.flush().then(() => {
        flushed = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(stored.map((e) => e.seq)).toEqual([1, 2]);
      expect(flushed).toBe(true);
      await flushing;
    } finally {
      vi.useRealTimers();
    }
  });

  it("writes the last events beside a write still running when flushed; a join reads them in order", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const { db, stored, release, waiting, releaseLast } = fakeDb();
      const { realtime } = fakeRealtime();
      const deps = { db, realtime, log, events: createEventHub({ sendFirst: true }) };
      const events = createRunEventLog(deps, SESSION, RUN);
      void events.append(delta("a"));
      await vi.advanceTimersByTimeAsync(STORE_AFTER_MS);
      expect(waiting()).toBe(1);
      void events.append(delta("b"));
      void events.append(delta("c"));
      const flushing = events.flush();
      await vi.advanceTimersByTimeAsync(0);
      // The run's end does not wait for the running write before it starts the next one.
      expect(waiting()).toBe(2);
      releaseLast();
      await vi.advanceTimersByTimeAsync(0);
      expect(stored.map((e) => e.seq)).toEqual([2, 3]);
      // A page full of stored events still gets the one in flight below them.
      const page = await readRunEvents(deps, SESSION, 0, 1);
      expect(page.events.map((e) => e.seq)).toEqual([1]);
      expect(page.has_more).toBe(true);
      expect((await readRunEvents(deps, SESSION, 0, 5)).events.map((e) => e.seq)).toEqual([
        1, 2, 3,
      ]);
      release();
      await flushing;
      expect(stored.map((e) => e.seq).sort()).toEqual([1, 2, 3]);
      events.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends at once, serves in-flight events to joins, and numbers on across runs", async () => {
    const { db, stored, release, hold } = fakeDb();
    const { realtime, sent } = fakeRealtime();
    const deps = { db, realtime, log, events: createEventHub({ sendFirst: true }) };
    const events = createRunEventLog(deps, SESSION, RUN);
    const written = [events.append(delta("a")), events.append(delta("b"))];
    await new Promise((r) => setTimeout(r, 5));
    // Sent before the write landed, numbered from the stored counter.
    expect(sent.map((e) => e.seq)).toEqual([1, 2]);
    expect(stored).toEqual([]);
    // A join now finds them in flight; none is lost between backlog and live.
    const backlog = await readRunEvents(deps, SESSION, 0, 100);
    expect(backlog.events.map((e) => [e.seq, e.type === "final.delta" && e.text])).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
    expect(backlog.last_seq).toBe(2);
    expect((await readRunEvents(deps, SESSION, 1, 100)).events.map((e) => e.seq)).toEqual([2]);

    release();
    expect((await Promise.all(written)).map((e) => e.seq)).toEqual([1, 2]);
    expect(stored.map((e) => e.seq)).toEqual([1, 2]);
    expect(deps.events.inflight(SESSION, 0)).toEqual([]);

    // The next run's log continues the session's numbers, even with a write still pending.
    hold();
    const next = createRunEventLog(deps, SESSION, RUN);
    const third = next.append(delta("c"));
    events.close();
    const fourth = next.append(delta("d"));
    expect(sent.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    release();
    await next.flush();
    expect([(await third).seq, (await fourth).seq]).toEqual([3, 4]);
    expect(stored.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    next.close();
  });
});

describe("store first (several instances)", () => {
  it("sends an event only after it is stored, numbered by the database", async () => {
    const { db, stored, release } = fakeDb();
    const { realtime, sent } = fakeRealtime();
    const deps = { db, realtime, log, events: createEventHub({ sendFirst: false }) };
    const events = createRunEventLog(deps, SESSION, RUN);
    const first = events.append(delta("a"));
    await new Promise((r) => setTimeout(r, 5));
    expect(sent).toEqual([]);
    release();
    expect((await first).seq).toBe(1);
    expect(sent.map((e) => e.seq)).toEqual([1]);
    expect(stored.map((e) => e.seq)).toEqual([1]);
  });
});
