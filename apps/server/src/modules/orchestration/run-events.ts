import { SERVER_EVENTS, type TRunEvent, type TRunEventsResponse } from "@cohort/contracts";
import { type Db, prepared, type Queryable } from "../../db/client";
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
  store: Gatherer<Numbered> | null;
  /** Store first: every run's events of this process, numbered and stored together. */
  numberer: Gatherer<Unnumbered> | null;
}

export function createEventHub(options: { sendFirst: boolean }): EventHub {
  const streams = new Map<string, SessionStream>();
  const hub: Hub = {
    sendFirst: options.sendFirst,
    streams,
    store: null,
    numberer: null,
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
  /**
   * Resolves when everything appended so far is stored and sent; what still waits for the
   * next gathered write is written at once (a run's end, decision 086).
   */
  flush(): Promise<void>;
  /** After the last flush: the stream lets go of the session. */
  close(): void;
}

interface Pending<E> {
  event: E;
  resolve(event: TRunEvent): void;
  reject(error: unknown): void;
}

/**
 * Store first: each session's counter is bumped by its number of events in the batch and the
 * events are inserted, in one statement for any number of sessions and runs. Counters are
 * locked in session order, so two instances writing batches of the same sessions queue
 * behind each other instead of deadlocking. Answers each session's highest number.
 */
const NUMBER_AND_INSERT = prepared(`
  WITH e AS (
    SELECT value, value->>'session_id' AS sid, (value->>'session_id')::uuid AS session_id,
      row_number() OVER (PARTITION BY value->>'session_id' ORDER BY ord) AS n,
      count(*) OVER (PARTITION BY value->>'session_id') AS total
    FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(value, ord)
  ), counter AS (
    INSERT INTO run_event_counters (session_id, last_seq)
    SELECT session_id, max(total) FROM e GROUP BY session_id ORDER BY session_id
    ON CONFLICT (session_id) DO UPDATE SET last_seq = run_event_counters.last_seq + EXCLUDED.last_seq
    RETURNING session_id, last_seq
  ), stored AS (
    INSERT INTO run_events (session_id, seq, run_id, type, data)
    SELECT e.session_id, counter.last_seq - e.total + e.n, (e.value->>'run_id')::uuid,
      e.value->>'type', e.value
    FROM e JOIN counter USING (session_id)
  )
  SELECT DISTINCT e.sid AS session_id, counter.last_seq FROM e JOIN counter USING (session_id)`);

/**
 * Send first: the numbers are given, for any number of sessions and runs at once (each event
 * carries its session and run); each session's counter follows its highest number stored.
 */
const INSERT_NUMBERED = prepared(`
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
  SELECT session_id, seq, run_id, type, data FROM e`);

/** An event waiting for the process's next write, and how to tell its appender. */
interface Gathered<E> {
  readonly sessionId: string;
  readonly runId: string;
  entry: Pending<E>;
}

interface Numbered extends Gathered<TRunEvent> {
  /** After the write, stored or not: the event is no longer in flight. */
  settled(): void;
}

type Unnumbered = Gathered<Omit<TRunEvent, "seq">>;

interface Gatherer<T> {
  push(item: T): void;
  /** A write that waits for its delay starts now. */
  hurry(): void;
}

/**
 * Send first: what every run of this process sent within `STORE_AFTER_MS` is stored in one
 * statement, and while it runs the next ones gather for the one after. The events are out
 * already and joins read them from memory meanwhile, so storing a little later costs a
 * reader nothing; storing each as it came cost a statement (and, embedded, a stall of this
 * thread) per streamed delta: about 100 per run (50 ms: at most 20 statements a second
 * for the whole process, however many runs stream).
 */
export const STORE_AFTER_MS = 50;

/**
 * The process's event writes, one at a time: the first item waits `delayMs` (0: the end of
 * this turn of the event loop, so what every run appends in one turn goes together), and
 * what comes while a write runs goes in the next. A batch that fails is retried session by
 * session, so one session's problem (deleted mid-run) costs no other its events.
 */
function gatherWrites<T extends Gathered<unknown>>(
  log: RunEventLogDeps["log"],
  delayMs: number,
  write: (batch: T[]) => Promise<void>,
  failed: (item: T) => void = () => {},
): Gatherer<T> {
  let queue: T[] = [];
  let busy = false;
  const fail = (batch: T[], error: unknown) => {
    const first = batch[0];
    log.error(
      { err: error, sessionId: first?.sessionId, runId: first?.runId },
      "run events could not be stored",
    );
    for (const item of batch) {
      failed(item);
      item.entry.reject(error);
    }
  };
  const writeApart = async (batch: T[], error: unknown): Promise<void> => {
    const bySession = new Map<string, T[]>();
    for (const item of batch) {
      const group = bySession.get(item.sessionId);
      if (group) group.push(item);
      else bySession.set(item.sessionId, [item]);
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
  /** The delay before the next write, while one is waiting to start. */
  let timer: NodeJS.Timeout | null = null;
  return {
    push(item) {
      queue.push(item);
      if (busy) return;
      busy = true;
      if (delayMs > 0) {
        timer = setTimeout(() => {
          timer = null;
          void drain();
        }, delayMs);
      } else setImmediate(() => void drain());
    },
    hurry() {
      if (timer) {
        clearTimeout(timer);
        timer = null;
        void drain();
        return;
      }
      // A write runs already: what waits for the one after it goes now, beside it (a run's
      // end, decision 087), instead of one round trip after the other. Its events may land
      // before the running write's: a reader merges what is in flight (`readRunEvents`).
      if (busy && queue.length > 0) {
        const batch = queue;
        queue = [];
        void write(batch).catch((error: unknown) => writeApart(batch, error));
      }
    },
  };
}

function storeTogether(deps: Pick<RunEventLogDeps, "db" | "log">): Gatherer<Numbered> {
  return gatherWrites<Numbered>(
    deps.log,
    STORE_AFTER_MS,
    async (batch) => {
      await deps.db.query(INSERT_NUMBERED, [JSON.stringify(batch.map((n) => n.entry.event))]);
      for (const n of batch) {
        n.settled();
        n.entry.resolve(n.entry.event);
      }
    },
    (n) => n.settled(),
  );
}

/**
 * Store first: the events every run of this process appended since the last write are
 * numbered and stored in one statement, then sent in order. One statement per turn for the
 * process, not one per event and run: with 100 runs streaming, a statement (and a commit)
 * per delta was most of the database's work and a good part of the instances'.
 */
function numberTogether(deps: Pick<RunEventLogDeps, "db" | "log" | "realtime">) {
  return gatherWrites<Unnumbered>(deps.log, 0, async (batch) => {
    const { rows } = await deps.db.query<{ session_id: string; last_seq: number }>(
      NUMBER_AND_INSERT,
      [JSON.stringify(batch.map((item) => item.entry.event))],
    );
    // Each session's events of the batch end at its counter: the first is counter − count + 1.
    const count = new Map<string, number>();
    for (const item of batch) count.set(item.sessionId, (count.get(item.sessionId) ?? 0) + 1);
    const next = new Map(
      rows.map((r) => [r.session_id, Number(r.last_seq) - (count.get(r.session_id) ?? 0) + 1]),
    );
    for (const item of batch) {
      const seq = next.get(item.sessionId) as number;
      next.set(item.sessionId, seq + 1);
      const event = { ...item.entry.event, seq } as TRunEvent;
      deps.realtime.io.to(chatRoom(item.sessionId)).emit(SERVER_EVENTS.runEvent, event);
      item.entry.resolve(event);
    }
  });
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
  return deps.events.sendFirst
    ? sendFirstLog(scope, deps.events as Hub)
    : storeFirstLog(scope, deps.events as Hub);
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

/**
 * A log's events not yet stored (or failed): its `flush` starts their write now if it waits
 * for its delay (`gatherer`), and waits for them.
 */
function unstoredEvents(gatherer?: () => Pick<Gatherer<unknown>, "hurry"> | null) {
  const unstored = new Set<Promise<TRunEvent>>();
  return {
    add(stored: Promise<TRunEvent>) {
      const settled = stored.finally(() => unstored.delete(settled));
      settled.catch(() => {});
      unstored.add(settled);
    },
    async flush() {
      while (unstored.size > 0) {
        gatherer?.()?.hurry();
        await Promise.allSettled([...unstored]);
      }
    },
  };
}

function storeFirstLog(scope: Scope, hub: Hub): RunEventLog {
  hub.numberer ??= numberTogether(scope.deps);
  const numberer = hub.numberer;
  const unstored = unstoredEvents();
  return {
    append(input) {
      const { entry, stored } = pending(scope.stamp(input));
      unstored.add(stored);
      numberer.push({ sessionId: scope.sessionId, runId: scope.runId, entry });
      return stored;
    },
    flush: unstored.flush,
    close() {},
  };
}

function sendFirstLog(scope: Scope, hub: Hub): RunEventLog {
  let stream: SessionStream | null = null;
  let unnumbered: Pending<Omit<TRunEvent, "seq">>[] = [];
  let waiting = false;
  const unstored = unstoredEvents(() => hub.store);
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
      store.push({
        sessionId: scope.sessionId,
        runId: scope.runId,
        entry: { ...waiting, event },
        settled: () => settle(s, event.seq),
      });
    }
    unnumbered = [];
  };

  return {
    append(input) {
      const s = open();
      const { entry, stored } = pending(scope.stamp(input));
      unstored.add(stored);
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
    flush: unstored.flush,
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
  if (inflight.length === 0) return page;
  // Two writes may land out of order (a run's end hurries the last one, decision 087): an
  // event in flight can sit below stored ones, so it is merged even into a full page.
  const bySeq = new Map(page.events.map((e) => [e.seq, e]));
  const below = page.has_more ? (page.events.at(-1)?.seq ?? after) : Number.POSITIVE_INFINITY;
  for (const event of inflight) {
    if (event.seq <= below && !bySeq.has(event.seq)) bySeq.set(event.seq, event);
  }
  const events = [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(0, limit);
  return {
    events,
    last_seq: Math.max(page.last_seq, events.at(-1)?.seq ?? 0),
    has_more: page.has_more || bySeq.size > limit,
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
