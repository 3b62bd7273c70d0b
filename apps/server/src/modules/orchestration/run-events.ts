import { SERVER_EVENTS, type TRunEvent, type TRunEventsResponse } from "@cohort/contracts";
import type { Db, Queryable } from "../../db/client";
import type { Realtime } from "../../platform/realtime";
import { chatRoom } from "../../platform/realtime-rooms";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as the engine writes it: the log adds seq, session, run and time. */
export type RunEventInput = DistributiveOmit<TRunEvent, "seq" | "session_id" | "run_id" | "at">;

/**
 * Run events are numbered per session (1, 2, … without gaps), stored, and sent to the
 * session's room. What a client may never see is a gap between the backlog it reads on
 * joining and the live events after it. Two ways keep that true:
 *
 * - **store first** (several instances, with Redis): an event is numbered and stored in one
 *   statement and sent only after. A join enters the room first and reads the backlog after,
 *   so every event is live, in the backlog, or both.
 * - **send first** (one process: no Redis): the process hands out the numbers itself and
 *   sends an event at once, before its write lands; until it does, the event is "in flight"
 *   and a join reads it from memory (snapshot before the backlog query). Every writer of the
 *   session's events is in this process, so the numbers stay consecutive, and an event's
 *   latency no longer waits for the database — the embedded one runs on this very thread.
 *
 * Either way the client applies backlog and live events through `takeNewEvents`.
 */
export interface EventHub {
  readonly sendFirst: boolean;
  /** Sent but not yet stored events of the session after `after`, in seq order. */
  inflight(sessionId: string, after: number): TRunEvent[];
  /** The highest number this process has sent in the session (0 when none is known). */
  lastSent(sessionId: string): number;
}

interface SessionStream {
  /** The next number to hand out; null until read from the database. */
  next: number | null;
  ready: Promise<void> | null;
  inflight: Map<number, TRunEvent>;
  writers: number;
}

interface Hub extends EventHub {
  streams: Map<string, SessionStream>;
  /** Send first: every run's events of this process, stored together (see `storeTogether`). */
  store: SharedStore | null;
}

export function createEventHub(options: { sendFirst: boolean }): EventHub {
  const streams = new Map<string, SessionStream>();
  const hub: Hub = {
    sendFirst: options.sendFirst,
    streams,
    store: null,
    inflight(sessionId, after) {
      const stream = streams.get(sessionId);
      if (!stream) return [];
      return [...stream.inflight.values()]
        .filter((e) => e.seq > after)
        .sort((a, b) => a.seq - b.seq);
    },
    lastSent(sessionId) {
      const next = streams.get(sessionId)?.next;
      return next ? next - 1 : 0;
    },
  };
  return hub;
}

export interface RunEventLogDeps {
  db: Db;
  realtime: Realtime;
  events: EventHub;
  log: { error(details: object, message: string): void };
}

/**
 * A run's event stream. Appends are numbered in call order; appends made while a write is
 * in flight go out together in the next write, which keeps the database work per event small
 * when several agents stream at once.
 */
export interface RunEventLog {
  /** Resolves when the event is stored (and sent). */
  append(event: RunEventInput): Promise<TRunEvent>;
  /** Resolves when everything appended so far is stored and sent. */
  flush(): Promise<void>;
  /** After the last flush: the stream lets go of the session. */
  close(): void;
}

interface Pending<E> {
  event: E;
  resolve(event: TRunEvent): void;
  reject(error: unknown): void;
}

/** Store first: bump the session's counter by the batch size and insert it, in one statement. */
const NUMBER_AND_INSERT = `
  WITH counter AS (
    INSERT INTO run_event_counters (session_id, last_seq) VALUES ($1, $2)
    ON CONFLICT (session_id) DO UPDATE SET last_seq = run_event_counters.last_seq + EXCLUDED.last_seq
    RETURNING last_seq
  )
  INSERT INTO run_events (session_id, seq, run_id, type, data)
  SELECT $1, counter.last_seq - $2 + e.ord, $3, e.value->>'type', e.value
  FROM counter, jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(value, ord)
  RETURNING seq`;

/**
 * Send first: the numbers are given, for any number of sessions and runs at once (each event
 * carries its session and run); each session's counter follows its highest number stored.
 */
const INSERT_NUMBERED = `
  WITH e AS (
    SELECT (value->>'session_id')::uuid AS session_id, (value->>'seq')::bigint AS seq,
      (value->>'run_id')::uuid AS run_id, value->>'type' AS type, value - 'seq' AS data
    FROM jsonb_array_elements($1::jsonb)
  ), counter AS (
    INSERT INTO run_event_counters (session_id, last_seq)
    SELECT session_id, max(seq) FROM e GROUP BY session_id
    ON CONFLICT (session_id) DO UPDATE
      SET last_seq = GREATEST(run_event_counters.last_seq, EXCLUDED.last_seq)
  )
  INSERT INTO run_events (session_id, seq, run_id, type, data)
  SELECT session_id, seq, run_id, type, data FROM e`;

interface Numbered {
  entry: Pending<TRunEvent>;
  /** After the write, stored or not: the event is no longer in flight. */
  settled(): void;
}

interface SharedStore {
  push(item: Numbered): void;
}

/**
 * Send first: what every run of this process sent within `STORE_AFTER_MS` is stored in one
 * statement, and while it runs the next ones gather for the one after. The events are out
 * already and joins read them from memory meanwhile, so storing a little later costs a
 * reader nothing; storing each as it came cost a statement (and, embedded, a stall of this
 * thread) per streamed delta: about 100 per run (50 ms: at most 20 statements a second
 * for the whole process, however many runs stream). A batch that fails is retried session
 * by session, so one session's problem (deleted mid-run) costs no other its events.
 */
export const STORE_AFTER_MS = 50;

function storeTogether(deps: Pick<RunEventLogDeps, "db" | "log">): SharedStore {
  let queue: Numbered[] = [];
  let busy = false;
  const write = async (batch: Numbered[]): Promise<void> => {
    await deps.db.query(INSERT_NUMBERED, [JSON.stringify(batch.map((n) => n.entry.event))]);
    for (const n of batch) {
      n.settled();
      n.entry.resolve(n.entry.event);
    }
  };
  const fail = (batch: Numbered[], error: unknown) => {
    const sessionId = batch[0]?.entry.event.session_id;
    deps.log.error({ err: error, sessionId }, "run events could not be stored");
    for (const n of batch) {
      n.settled();
      n.entry.reject(error);
    }
  };
  const writeApart = async (batch: Numbered[], error: unknown): Promise<void> => {
    const bySession = new Map<string, Numbered[]>();
    for (const n of batch) {
      const group = bySession.get(n.entry.event.session_id);
      if (group) group.push(n);
      else bySession.set(n.entry.event.session_id, [n]);
    }
    if (bySession.size === 1) return fail(batch, error);
    for (const group of bySession.values())
      await write(group).catch((e: unknown) => fail(group, e));
  };
  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await write(batch).catch((error: unknown) => writeApart(batch, error));
    }
    busy = false;
  };
  return {
    push(item) {
      queue.push(item);
      if (busy) return;
      busy = true;
      setTimeout(() => void drain(), STORE_AFTER_MS);
    },
  };
}

export function createRunEventLog(
  deps: RunEventLogDeps,
  sessionId: string,
  runId: string,
): RunEventLog {
  const scope: Scope = {
    deps,
    sessionId,
    runId,
    room: () => deps.realtime.io.to(chatRoom(sessionId)),
    stamp: (input) =>
      ({
        ...input,
        session_id: sessionId,
        run_id: runId,
        at: new Date().toISOString(),
      }) as Omit<TRunEvent, "seq">,
    failed: (batch, error) => {
      deps.log.error({ err: error, sessionId, runId }, "run events could not be stored");
      for (const entry of batch) entry.reject(error);
    },
  };
  return deps.events.sendFirst ? sendFirstLog(scope, deps.events as Hub) : storeFirstLog(scope);
}

interface Scope {
  deps: RunEventLogDeps;
  sessionId: string;
  runId: string;
  room(): ReturnType<Realtime["io"]["to"]>;
  stamp(input: RunEventInput): Omit<TRunEvent, "seq">;
  failed(batch: readonly Pending<unknown>[], error: unknown): void;
}

function pending<E>(event: E): { entry: Pending<E>; stored: Promise<TRunEvent> } {
  let entry: Pending<E> | undefined;
  const stored = new Promise<TRunEvent>((resolve, reject) => {
    entry = { event, resolve, reject };
  });
  // Most appends are fire-and-forget (a failed write is logged); a caller that awaits
  // still sees the rejection.
  stored.catch(() => {});
  return { entry: entry as Pending<E>, stored };
}

/** Writes what is queued, batch after batch, one write at a time. */
function createWriter<E>(write: (batch: Pending<E>[]) => Promise<void>) {
  let queue: Pending<E>[] = [];
  let writing: Promise<void> | null = null;
  const drain = (): Promise<void> => {
    writing ??= (async () => {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        await write(batch);
      }
      writing = null;
    })();
    return writing;
  };
  return {
    push(entry: Pending<E>) {
      queue.push(entry);
      void drain();
    },
    busy: () => writing !== null || queue.length > 0,
    drain,
  };
}

function storeFirstLog(scope: Scope): RunEventLog {
  const writer = createWriter<Omit<TRunEvent, "seq">>(async (batch) => {
    try {
      const { rows } = await scope.deps.db.query<{ seq: number }>(NUMBER_AND_INSERT, [
        scope.sessionId,
        batch.length,
        scope.runId,
        JSON.stringify(batch.map((p) => p.event)),
      ]);
      const first = Math.max(...rows.map((r) => Number(r.seq))) - batch.length + 1;
      const room = scope.room();
      batch.forEach((entry, i) => {
        const event = { ...entry.event, seq: first + i } as TRunEvent;
        room.emit(SERVER_EVENTS.runEvent, event);
        entry.resolve(event);
      });
    } catch (error) {
      scope.failed(batch, error);
    }
  });
  return {
    append(input) {
      const { entry, stored } = pending(scope.stamp(input));
      writer.push(entry);
      return stored;
    },
    async flush() {
      while (writer.busy()) await writer.drain();
    },
    close() {},
  };
}

function sendFirstLog(scope: Scope, hub: Hub): RunEventLog {
  let stream: SessionStream | null = null;
  let unnumbered: Pending<Omit<TRunEvent, "seq">>[] = [];
  let waiting = false;
  /** This log's events not yet stored (or failed): `flush` waits for them. */
  const unstored = new Set<Promise<TRunEvent>>();
  hub.store ??= storeTogether(scope.deps);
  const store = hub.store;

  const open = (): SessionStream => {
    if (!stream) {
      stream = hub.streams.get(scope.sessionId) ?? {
        next: null,
        ready: null,
        inflight: new Map(),
        writers: 0,
      };
      hub.streams.set(scope.sessionId, stream);
      stream.writers += 1;
    }
    return stream;
  };

  /** Stored or failed: no longer in flight; a stream no log uses any more is let go. */
  const settle = (s: SessionStream, seq: number) => {
    s.inflight.delete(seq);
    if (s.writers === 0 && s.inflight.size === 0 && hub.streams.get(scope.sessionId) === s) {
      hub.streams.delete(scope.sessionId);
    }
  };

  /** Numbers and sends what waits, in append order; the writes follow. */
  const number = (s: SessionStream) => {
    const room = scope.room();
    for (const waiting of unnumbered) {
      const event = { ...waiting.event, seq: s.next as number } as TRunEvent;
      s.next = event.seq + 1;
      s.inflight.set(event.seq, event);
      room.emit(SERVER_EVENTS.runEvent, event);
      store.push({ entry: { ...waiting, event }, settled: () => settle(s, event.seq) });
    }
    unnumbered = [];
  };

  return {
    append(input) {
      const s = open();
      const { entry, stored } = pending(scope.stamp(input));
      const settled = stored.finally(() => unstored.delete(settled));
      settled.catch(() => {});
      unstored.add(settled);
      unnumbered.push(entry);
      if (waiting) return stored;
      if (s.next !== null) {
        number(s);
        return stored;
      }
      // The first event of the session in this process: its number follows the stored ones.
      waiting = true;
      s.ready ??= scope.deps.db
        .query<{ last_seq: number }>(
          "SELECT last_seq FROM run_event_counters WHERE session_id = $1",
          [scope.sessionId],
        )
        .then(({ rows }) => {
          s.next ??= Number(rows[0]?.last_seq ?? 0) + 1;
        });
      s.ready.then(
        () => {
          waiting = false;
          number(s);
        },
        (error: unknown) => {
          waiting = false;
          s.ready = null;
          scope.failed(unnumbered, error);
          unnumbered = [];
        },
      );
      return stored;
    },
    async flush() {
      while (unstored.size > 0) await Promise.allSettled([...unstored]);
    },
    close() {
      const s = stream;
      if (!s) return;
      stream = null;
      s.writers -= 1;
      if (s.writers === 0 && s.inflight.size === 0) hub.streams.delete(scope.sessionId);
    },
  };
}

interface EventRow {
  seq: number;
  data: Omit<TRunEvent, "seq">;
}

/** Stored events of a session after `after`, in order. */
export async function listStoredRunEvents(
  db: Queryable,
  sessionId: string,
  after: number,
  limit: number,
): Promise<TRunEventsResponse> {
  const [events, counter] = await Promise.all([
    db.query<EventRow>(
      `SELECT seq, data FROM run_events WHERE session_id = $1 AND seq > $2
       ORDER BY seq LIMIT $3`,
      [sessionId, after, limit + 1],
    ),
    db.query<{ last_seq: number }>(
      "SELECT last_seq FROM run_event_counters WHERE session_id = $1",
      [sessionId],
    ),
  ]);
  const rows = events.rows.slice(0, limit);
  const list = rows.map((row) => ({ ...row.data, seq: Number(row.seq) }) as TRunEvent);
  return {
    events: list,
    // The two reads are not one snapshot: a batch may land between them.
    last_seq: Math.max(Number(counter.rows[0]?.last_seq ?? 0), list.at(-1)?.seq ?? 0),
    has_more: events.rows.length > limit,
  };
}

/**
 * The session's events after `after` as a join or a reload needs them: stored ones, plus
 * (send first) those in flight — snapshotted BEFORE the stored ones are read, so an event
 * that lands in between is in one or the other.
 */
export async function readRunEvents(
  deps: Pick<RunEventLogDeps, "db" | "events">,
  sessionId: string,
  after: number,
  limit: number,
): Promise<TRunEventsResponse> {
  const inflight = deps.events.inflight(sessionId, after);
  // Sent but not stored yet, at or before `after` (a reader already has them): still the
  // session's newest number, which the stored counter does not know of yet.
  const sent = deps.events.lastSent(sessionId);
  const stored = await listStoredRunEvents(deps.db, sessionId, after, limit);
  const page = { ...stored, last_seq: Math.max(stored.last_seq, stored.has_more ? 0 : sent) };
  if (inflight.length === 0 || page.has_more) return page;
  const bySeq = new Map(page.events.map((e) => [e.seq, e]));
  for (const event of inflight) if (!bySeq.has(event.seq)) bySeq.set(event.seq, event);
  const events = [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(0, limit);
  return {
    events,
    last_seq: Math.max(page.last_seq, events.at(-1)?.seq ?? 0),
    has_more: bySeq.size > limit,
  };
}

/**
 * When the session's event numbered `seq` was made (its `at`): in flight (send first) or
 * stored; null when it has no such event. A joining client that holds another event under
 * that number saw events this server sent and then lost in a crash before storing them.
 */
export async function runEventAt(
  deps: Pick<RunEventLogDeps, "db" | "events">,
  sessionId: string,
  seq: number,
): Promise<string | null> {
  const inflight = deps.events.inflight(sessionId, seq - 1).find((e) => e.seq === seq);
  if (inflight) return inflight.at;
  const { rows } = await deps.db.query<{ at: string }>(
    "SELECT data->>'at' AS at FROM run_events WHERE session_id = $1 AND seq = $2",
    [sessionId, seq],
  );
  return rows[0]?.at ?? null;
}

/**
 * The session's last event number, for a reader's replay cursor: the stored counter, or
 * (send first) a higher number already sent whose write has not landed yet.
 */
export async function lastEventSeq(
  deps: Pick<RunEventLogDeps, "db" | "events">,
  sessionId: string,
): Promise<number> {
  const sent = deps.events.lastSent(sessionId);
  const { rows } = await deps.db.query<{ last_seq: number }>(
    "SELECT last_seq FROM run_event_counters WHERE session_id = $1",
    [sessionId],
  );
  return Math.max(Number(rows[0]?.last_seq ?? 0), sent);
}
