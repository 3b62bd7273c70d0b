import { SERVER_EVENTS, type TRunEvent, type TRunEventsResponse } from "@cohort/contracts";
import type { Db, Queryable } from "../../db/client";
import type { Realtime } from "../../platform/realtime";

/** The socket.io room of a chat session (apart from auth's `session:<authSessionId>`). */
export const chatRoom = (sessionId: string) => `chat:${sessionId}`;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as the engine writes it: the log adds seq, session, run and time. */
export type RunEventInput = DistributiveOmit<TRunEvent, "seq" | "session_id" | "run_id" | "at">;

export interface RunEventLogDeps {
  db: Db;
  realtime: Realtime;
  log: { error(details: object, message: string): void };
}

/**
 * A run's event stream. Events are numbered per session in the order `append` is called,
 * stored, and only then sent to the session's room — so anything a client receives live is
 * already in the backlog a later join reads, and nothing falls between the two.
 *
 * Appends made while a write is in flight go out together in the next write: one statement
 * numbers and stores the whole batch, which keeps the database work per event small when
 * several agents stream at once.
 */
export interface RunEventLog {
  append(event: RunEventInput): Promise<TRunEvent>;
  /** Resolves when everything appended so far is stored and sent. */
  flush(): Promise<void>;
}

interface Pending {
  event: Omit<TRunEvent, "seq">;
  resolve(event: TRunEvent): void;
  reject(error: unknown): void;
}

/**
 * One statement: bump the session's counter by the batch size (its row lock orders
 * concurrent writers) and insert the batch with consecutive numbers.
 */
const INSERT_BATCH = `
  WITH counter AS (
    INSERT INTO run_event_counters (session_id, last_seq) VALUES ($1, $2)
    ON CONFLICT (session_id) DO UPDATE SET last_seq = run_event_counters.last_seq + EXCLUDED.last_seq
    RETURNING last_seq
  )
  INSERT INTO run_events (session_id, seq, run_id, type, data)
  SELECT $1, counter.last_seq - $2 + e.ord, $3, e.value->>'type', e.value
  FROM counter, jsonb_array_elements($4::jsonb) WITH ORDINALITY AS e(value, ord)
  RETURNING seq`;

export function createRunEventLog(
  deps: RunEventLogDeps,
  sessionId: string,
  runId: string,
): RunEventLog {
  let queue: Pending[] = [];
  let writing: Promise<void> | null = null;

  async function writeBatch(batch: Pending[]) {
    try {
      const { rows } = await deps.db.query<{ seq: number }>(INSERT_BATCH, [
        sessionId,
        batch.length,
        runId,
        JSON.stringify(batch.map((p) => p.event)),
      ]);
      const last = Math.max(...rows.map((r) => Number(r.seq)));
      const first = last - batch.length + 1;
      const room = deps.realtime.io.to(chatRoom(sessionId));
      batch.forEach((pending, i) => {
        const event = { ...pending.event, seq: first + i } as TRunEvent;
        room.emit(SERVER_EVENTS.runEvent, event);
        pending.resolve(event);
      });
    } catch (error) {
      deps.log.error({ err: error, sessionId, runId }, "run events could not be stored");
      for (const pending of batch) pending.reject(error);
    }
  }

  function drain(): Promise<void> {
    if (!writing) {
      writing = (async () => {
        while (queue.length > 0) {
          const batch = queue;
          queue = [];
          await writeBatch(batch);
        }
        writing = null;
      })();
    }
    return writing;
  }

  return {
    append(input) {
      const event = {
        ...input,
        session_id: sessionId,
        run_id: runId,
        at: new Date().toISOString(),
      } as Omit<TRunEvent, "seq">;
      const stored = new Promise<TRunEvent>((resolve, reject) => {
        queue.push({ event, resolve, reject });
      });
      // Most appends are fire-and-forget (the write is logged when it fails); a caller that
      // awaits still sees the rejection.
      stored.catch(() => {});
      void drain();
      return stored;
    },
    async flush() {
      while (writing || queue.length > 0) await drain();
    },
  };
}

interface EventRow {
  seq: number;
  data: Omit<TRunEvent, "seq">;
}

/** Stored events of a session after `after`, in order, as the socket replays them. */
export async function listRunEvents(
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

export async function lastEventSeq(db: Queryable, sessionId: string): Promise<number> {
  const { rows } = await db.query<{ last_seq: number }>(
    "SELECT last_seq FROM run_event_counters WHERE session_id = $1",
    [sessionId],
  );
  return Number(rows[0]?.last_seq ?? 0);
}
