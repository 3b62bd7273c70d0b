import type { TJoinSessionAck, TRunEvent, TRunEventsResponse } from "@cohort/contracts";
import { describe, expect, it, vi } from "vitest";
import { GAP_FILL_DELAY_MS, type SessionFeedTransport, startSessionFeed } from "./session-feed";

const SESSION = "s1";

function delta(seq: number, text = `t${seq}`, session = SESSION): TRunEvent {
  return {
    type: "agent.delta",
    seq,
    session_id: session,
    run_id: "r1",
    at: "2025-01-01T00:00:00.000Z",
    call_id: "c1",
    step_id: "p1",
    kind: "agent",
    text,
  };
}

function range(from: number, to: number): TRunEvent[] {
  return Array.from({ length: to - from + 1 }, (_, i) => delta(from + i));
}

/** A stored event log served over "HTTP" and a socket the test drives by hand. */
function harness(stored: TRunEvent[], pageSize = 1000) {
  const live = new Set<(event: TRunEvent) => void>();
  const connects = new Set<() => void>();
  let connected = false;
  const joins: number[] = [];
  const joinAts: (string | undefined)[] = [];
  const fetches: number[] = [];
  let ackFor: (lastSeq: number) => TJoinSessionAck = (lastSeq) => ({
    ok: true,
    backlog: stored.filter((e) => e.seq > lastSeq),
    lastSeq: stored.at(-1)?.seq ?? 0,
    hasMore: false,
  });
  const transport: SessionFeedTransport = {
    join: async (_sessionId, lastSeq, lastAt) => {
      joins.push(lastSeq);
      joinAts.push(lastAt);
      return ackFor(lastSeq);
    },
    leave: vi.fn(),
    onRunEvent(handler) {
      live.add(handler);
      return () => live.delete(handler);
    },
    onConnect(handler) {
      connects.add(handler);
      if (connected) handler();
      return () => connects.delete(handler);
    },
  };
  const fetchEvents = async (after: number): Promise<TRunEventsResponse> => {
    fetches.push(after);
    const rest = stored.filter((e) => e.seq > after);
    return {
      events: rest.slice(0, pageSize),
      last_seq: stored.at(-1)?.seq ?? 0,
      has_more: rest.length > pageSize,
    };
  };
  const received: number[] = [];
  return {
    transport,
    fetchEvents,
    received,
    joins,
    joinAts,
    fetches,
    onEvents: (events: TRunEvent[]) => received.push(...events.map((e) => e.seq)),
    emit: (event: TRunEvent) => {
      for (const handler of live) handler(event);
    },
    connect: () => {
      connected = true;
      for (const handler of connects) handler();
    },
    disconnect: () => {
      connected = false;
    },
    setAck: (fn: typeof ackFor) => {
      ackFor = fn;
    },
  };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("session feed", () => {
  it("backfills over HTTP in pages, then joins with the newest seq", async () => {
    const stored = range(1, 25);
    const h = harness(stored, 10);
    h.connect();
    startSessionFeed({ sessionId: SESSION, afterSeq: 0, ...h });
    await flush();
    await flush();
    expect(h.fetches).toEqual([0, 10, 20]);
    expect(h.joins).toEqual([25]);
    expect(h.received).toEqual(range(1, 25).map((e) => e.seq));
  });

  it("delivers each event once when live events overlap the backlog", async () => {
    const stored = range(1, 5);
    const h = harness(stored);
    startSessionFeed({ sessionId: SESSION, afterSeq: 0, ...h });
    // Live events arrive while the backfill is still under way: 6 and 7, then 6 again.
    h.emit(delta(7));
    h.emit(delta(6));
    await flush();
    stored.push(delta(6), delta(7));
    h.connect();
    await flush();
    h.emit(delta(7));
    h.emit(delta(8));
    await flush();
    expect(h.received).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("re-joins with its last seq after a reconnect and gets only what it missed", async () => {
    const stored = range(1, 3);
    const h = harness(stored);
    h.connect();
    startSessionFeed({ sessionId: SESSION, afterSeq: 0, ...h });
    await flush();
    await flush();
    h.disconnect();
    stored.push(...range(4, 9));
    h.connect();
    await flush();
    expect(h.joins).toEqual([3, 3]);
    expect(h.received).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("starts after the caller's cursor and ignores other sessions' events", async () => {
    const stored = range(1, 6);
    const h = harness(stored);
    h.connect();
    startSessionFeed({ sessionId: SESSION, afterSeq: 4, ...h });
    await flush();
    await flush();
    h.emit(delta(7, "x", "other-session"));
    expect(h.fetches).toEqual([4]);
    expect(h.received).toEqual([5, 6]);
  });

  it("fills a gap that stays open over HTTP", async () => {
    vi.useFakeTimers();
    try {
      const stored = range(1, 2);
      const h = harness(stored);
      h.connect();
      startSessionFeed({ sessionId: SESSION, afterSeq: 0, ...h });
      await vi.advanceTimersByTimeAsync(0);
      stored.push(delta(3), delta(4));
      h.emit(delta(4)); // 3 got lost on the way
      await vi.advanceTimersByTimeAsync(0);
      expect(h.received).toEqual([1, 2]);
      await vi.advanceTimersByTimeAsync(GAP_FILL_DELAY_MS);
      expect(h.received).toEqual([1, 2, 3, 4]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("fetches the rest when the join backlog was cut short", async () => {
    const stored = range(1, 10);
    const h = harness(stored);
    h.setAck((lastSeq) => ({
      ok: true,
      backlog: stored.filter((e) => e.seq > lastSeq).slice(0, 2),
      lastSeq: 10,
      hasMore: true,
    }));
    // The HTTP backfill sees only up to 4 at first (the run goes on meanwhile).
    const all = [...stored];
    stored.splice(4);
    startSessionFeed({ sessionId: SESSION, afterSeq: 0, ...h });
    await flush();
    stored.push(...all.slice(4));
    h.connect();
    await flush();
    await flush();
    expect(h.received).toEqual(range(1, 10).map((e) => e.seq));
  });

  it("reports a refused join and stops cleanly", async () => {
    const h = harness([]);
    h.setAck(() => ({ ok: false, error: "not_found" }));
    const onError = vi.fn();
    h.connect();
    const feed = startSessionFeed({ sessionId: SESSION, afterSeq: 0, ...h, onError });
    await flush();
    await flush();
    expect(onError).toHaveBeenCalledOnce();
    feed.stop();
    h.emit(delta(1));
    expect(h.received).toEqual([]);
    expect(h.transport.leave).toHaveBeenCalledWith(SESSION);
  });

  it("joins with the at of its last event, and reads the session again when told it was rewound", async () => {
    const at = (seq: number) => `2025-01-01T00:00:0${seq}.000Z`;
    const stored = range(1, 3).map((e) => ({ ...e, at: at(e.seq) }));
    const h = harness(stored);
    h.connect();
    const onRewound = vi.fn();
    startSessionFeed({ sessionId: SESSION, afterSeq: 0, ...h, onRewound });
    await flush();
    await flush();
    // The backfill delivered 1–3 before the first join: it names the third.
    expect(h.joinAts).toEqual([at(3)]);
    h.disconnect();
    h.setAck((lastSeq) => ({ ok: true, backlog: [], lastSeq, hasMore: false, rewound: true }));
    h.connect();
    await flush();
    expect(h.joins).toEqual([3, 3]);
    expect(h.joinAts).toEqual([at(3), at(3)]);
    expect(onRewound).toHaveBeenCalledOnce();
    // The feed has stopped: the caller starts a new one from the session it reads again.
    expect(h.transport.leave).toHaveBeenCalledWith(SESSION);
    h.emit({ ...delta(4), at: at(4) });
    expect(h.received).toEqual([1, 2, 3]);
  });
});
