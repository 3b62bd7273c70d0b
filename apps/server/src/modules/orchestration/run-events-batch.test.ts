import type { TRunEvent } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngineFixture, type EngineFixture } from "../../../test/support/engine";
import type { Db } from "../../db/client";
import type { Realtime } from "../../platform/realtime";
import { createEventHub, createRunEventLog, listStoredRunEvents } from "./run-events";

let engine: EngineFixture;

beforeAll(async () => {
  engine = await createEngineFixture();
}, 60_000);
afterAll(() => engine.close());

/** The real database, with the event inserts it is asked for counted. */
function countingDb(db: Db) {
  const counted = { inserts: 0 };
  const counting: Db = {
    ...db,
    kind: db.kind,
    query: (sql, params) => {
      if (sql.includes("INSERT INTO run_events")) counted.inserts += 1;
      return db.query(sql, params);
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn) => db.transaction(fn),
    close: () => db.close(),
  };
  return { db: counting, counted };
}

const realtime = {
  io: { to: () => ({ emit: (_name: string, _event: TRunEvent) => {} }) },
} as unknown as Realtime;
const log = { error: () => {} };
const delta = (text: string) => ({ type: "final.delta", call_id: "c1", text }) as const;
/** An event as [seq, its text]. */
const text = (e: TRunEvent) => [e.seq, e.type === "final.delta" && e.text];
/** What the database holds of a session's events, as [seq, text]. */
const stored = async (sessionId: string) =>
  (await listStoredRunEvents(engine.db, sessionId, 0, 10)).events.map(text);

describe("send first: the events of every run within the store interval", () => {
  it("are stored in one statement, each session numbered on its own", async () => {
    const [a, b] = [await engine.newRun(), await engine.newRun()];
    const { db, counted } = countingDb(engine.db);
    const deps = { db, realtime, log, events: createEventHub({ sendFirst: true }) };
    const logA = createRunEventLog(deps, a.sessionId, a.runId);
    const logB = createRunEventLog(deps, b.sessionId, b.runId);
    // The first event of each session reads its counter; after that they number at once.
    await Promise.all([logA.append(delta("a0")), logB.append(delta("b0"))]);
    counted.inserts = 0;
    for (const piece of ["a1", "a2"]) void logA.append(delta(piece));
    void logB.append(delta("b1"));
    await Promise.all([logA.flush(), logB.flush()]);
    expect(counted.inserts).toBe(1);
    expect(await stored(a.sessionId)).toEqual([
      [1, "a0"],
      [2, "a1"],
      [3, "a2"],
    ]);
    expect(await stored(b.sessionId)).toEqual([
      [1, "b0"],
      [2, "b1"],
    ]);
    expect(deps.events.inflight(a.sessionId, 0)).toEqual([]);
    logA.close();
    logB.close();
  });

  it("keeps one session's events when another's cannot be stored", async () => {
    const [a, b] = [await engine.newRun(), await engine.newRun()];
    const deps = { db: engine.db, realtime, log, events: createEventHub({ sendFirst: true }) };
    const logA = createRunEventLog(deps, a.sessionId, a.runId);
    const logB = createRunEventLog(deps, b.sessionId, b.runId);
    await Promise.all([logA.append(delta("a0")), logB.append(delta("b0"))]);
    const kept = logA.append(delta("a1"));
    const lost = logB.append(delta("b1"));
    // Deleted before the turn's write: its events now violate the foreign key.
    await engine.db.query("DELETE FROM sessions WHERE id = $1", [b.sessionId]);
    expect((await kept).seq).toBe(2);
    await expect(lost).rejects.toThrow();
    expect((await listStoredRunEvents(engine.db, a.sessionId, 0, 10)).last_seq).toBe(2);
    logA.close();
    logB.close();
  });
});

describe("store first: the events every run appends in one turn", () => {
  const recording = () => {
    const sent: TRunEvent[] = [];
    const realtime = {
      io: { to: () => ({ emit: (_name: string, event: TRunEvent) => sent.push(event) }) },
    } as unknown as Realtime;
    return { realtime, sent };
  };

  it("are numbered and stored in one statement, each session on its own, then sent", async () => {
    const [a, b] = [await engine.newRun(), await engine.newRun()];
    const { db, counted } = countingDb(engine.db);
    const { realtime, sent } = recording();
    const deps = { db, realtime, log, events: createEventHub({ sendFirst: false }) };
    const logA = createRunEventLog(deps, a.sessionId, a.runId);
    const logB = createRunEventLog(deps, b.sessionId, b.runId);
    const appended = [
      logA.append(delta("a1")),
      logB.append(delta("b1")),
      logA.append(delta("a2")),
      logB.append(delta("b2")),
      logA.append(delta("a3")),
    ];
    expect(sent).toEqual([]);
    const events = await Promise.all(appended);
    expect(counted.inserts).toBe(1);
    expect(events.map(text)).toEqual([
      [1, "a1"],
      [1, "b1"],
      [2, "a2"],
      [2, "b2"],
      [3, "a3"],
    ]);
    expect(sent).toEqual(events);
    // The next turn's events number on from the stored counters.
    expect(text(await logB.append(delta("b3")))).toEqual([3, "b3"]);
    expect(await stored(a.sessionId)).toEqual([
      [1, "a1"],
      [2, "a2"],
      [3, "a3"],
    ]);
    expect(await stored(b.sessionId)).toEqual([
      [1, "b1"],
      [2, "b2"],
      [3, "b3"],
    ]);
  });

  it("keeps one session's events when another's cannot be stored, and sends none of those", async () => {
    const [a, b] = [await engine.newRun(), await engine.newRun()];
    const { realtime, sent } = recording();
    const deps = { db: engine.db, realtime, log, events: createEventHub({ sendFirst: false }) };
    const logA = createRunEventLog(deps, a.sessionId, a.runId);
    const logB = createRunEventLog(deps, b.sessionId, b.runId);
    await engine.db.query("DELETE FROM sessions WHERE id = $1", [b.sessionId]);
    const kept = logA.append(delta("a1"));
    const lost = logB.append(delta("b1"));
    expect((await kept).seq).toBe(1);
    await expect(lost).rejects.toThrow();
    await logB.flush();
    expect(sent.map(text)).toEqual([[1, "a1"]]);
    expect((await listStoredRunEvents(engine.db, a.sessionId, 0, 10)).last_seq).toBe(1);
  });
});
