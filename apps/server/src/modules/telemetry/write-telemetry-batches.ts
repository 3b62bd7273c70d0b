import type { FastifyBaseLogger } from "fastify";
import type { Queryable } from "../../db/client";

/**
 * The telemetry tables and their columns as `jsonb_to_recordset` types: a whole batch is one
 * parameter and one statement, whatever its size, on PGlite and PostgreSQL alike.
 */
const TABLES = {
  telemetry_logs: {
    source: "text",
    level: "text",
    message: "text",
    data: "jsonb",
    url: "text",
    user_agent: "text",
    user_id: "uuid",
    session_id: "text",
    request_id: "text",
    ip: "text",
    logged_at: "timestamptz",
  },
  analytics_page_views: {
    analytics_session_id: "text",
    user_id: "uuid",
    page_path: "text",
    page_title: "text",
    referrer: "text",
    utm_source: "text",
    utm_medium: "text",
    utm_campaign: "text",
    utm_term: "text",
    utm_content: "text",
    device_info: "jsonb",
    screen_info: "jsonb",
    ip: "text",
  },
  analytics_events: {
    analytics_session_id: "text",
    user_id: "uuid",
    category: "text",
    action: "text",
    label: "text",
    value: "double precision",
    properties: "jsonb",
    ip: "text",
  },
  analytics_performance: {
    analytics_session_id: "text",
    user_id: "uuid",
    page_path: "text",
    lcp: "double precision",
    fid: "double precision",
    inp: "double precision",
    cls: "double precision",
    ttfb: "double precision",
    fcp: "double precision",
    dom_load_time: "double precision",
    page_load_time: "double precision",
  },
  analytics_session_ends: {
    analytics_session_id: "text",
    user_id: "uuid",
    duration_seconds: "integer",
  },
} as const;

export type TelemetryTable = keyof typeof TABLES;
/** One row to insert: column name to value (null or absent stores NULL). */
export type TelemetryRow<T extends TelemetryTable> = {
  [K in keyof (typeof TABLES)[T]]?: unknown;
};

function insertSql(table: TelemetryTable): string {
  const columns = Object.entries(TABLES[table]);
  const names = columns.map(([name]) => name).join(", ");
  const types = columns.map(([name, type]) => `${name} ${type}`).join(", ");
  return `INSERT INTO ${table} (${names}) SELECT ${names} FROM jsonb_to_recordset($1::jsonb) AS x(${types})`;
}
const INSERT_SQL = Object.fromEntries(
  Object.keys(TABLES).map((table) => [table, insertSql(table as TelemetryTable)]),
) as Record<TelemetryTable, string>;

/** A batch that failed is retried this many times in later flushes, then dropped (and logged). */
const MAX_ATTEMPTS = 3;

export interface TelemetryQueueOptions {
  flushIntervalMs: number;
  batchSize: number;
  /** Rows waiting beyond which `push` refuses (the route answers 503, the client retries). */
  queueLimit: number;
  log: FastifyBaseLogger;
}

export interface TelemetryQueue {
  /** Queues rows for the next flush; false (nothing queued) when the queue is full. */
  push<T extends TelemetryTable>(table: T, rows: TelemetryRow<T>[]): boolean;
  /** Writes everything queued so far; resolves when it is stored (or given up on). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left: accepted entries survive a graceful shutdown. */
  close(): Promise<void>;
  pending(): number;
}

/**
 * Rows already in their JSON form, comma-separated without the brackets. Rows are serialised
 * when pushed, a request's worth at a time, so a flush only joins strings: serialising 500
 * rows at once would hold the event loop for milliseconds, and every request behind it.
 */
interface Piece {
  table: TelemetryTable;
  json: string;
  rows: number;
  attempts: number;
}

function toPiece(table: TelemetryTable, rows: unknown[], attempts: number): Piece {
  return { table, json: JSON.stringify(rows).slice(1, -1), rows: rows.length, attempts };
}

/**
 * Ingestion never inserts on the request path: routes push rows here and answer at once; a
 * timer (or a full batch) writes them in one statement per table and chunk.
 */
export function createTelemetryQueue(
  db: Queryable,
  options: TelemetryQueueOptions,
): TelemetryQueue {
  let queued: Piece[] = [];
  let count = 0;
  let running: Promise<void> = Promise.resolve();
  let flushScheduled = false;
  let closed = false;

  function enqueue(piece: Piece): void {
    queued.push(piece);
    count += piece.rows;
  }

  async function writeChunk(chunk: Piece): Promise<void> {
    try {
      await db.query(INSERT_SQL[chunk.table], [`[${chunk.json}]`]);
    } catch (err) {
      if (chunk.attempts + 1 < MAX_ATTEMPTS && !closed) {
        enqueue({ ...chunk, attempts: chunk.attempts + 1 });
        options.log.warn({ err, table: chunk.table }, "telemetry batch failed; will retry");
      } else {
        options.log.error(
          { err, table: chunk.table, dropped: chunk.rows },
          "telemetry batch dropped after retries",
        );
      }
    }
  }

  async function writeQueued(): Promise<void> {
    const pieces = queued;
    queued = [];
    count = 0;
    // Rows of one table pushed by many requests go out together, in chunks of batchSize.
    const byTable = new Map<TelemetryTable, { json: string[]; rows: number }[]>();
    for (const piece of pieces) {
      if (piece.attempts > 0) {
        await writeChunk(piece);
        continue;
      }
      const chunks = byTable.get(piece.table) ?? [];
      byTable.set(piece.table, chunks);
      const last = chunks.at(-1);
      if (last && last.rows + piece.rows <= options.batchSize) {
        last.json.push(piece.json);
        last.rows += piece.rows;
      } else {
        chunks.push({ json: [piece.json], rows: piece.rows });
      }
    }
    for (const [table, chunks] of byTable) {
      for (const chunk of chunks) {
        await writeChunk({ table, json: chunk.json.join(","), rows: chunk.rows, attempts: 0 });
      }
    }
  }

  function flush(): Promise<void> {
    // One flush at a time: the next one starts after the previous has written.
    running = running.then(writeQueued);
    return running;
  }

  function scheduleFlush(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      void flush();
    });
  }

  const timer = setInterval(() => {
    if (count > 0) void flush();
  }, options.flushIntervalMs);
  timer.unref();

  return {
    push(table, rows) {
      if (rows.length === 0) return true;
      if (closed || count + rows.length > options.queueLimit) return false;
      // A push larger than a chunk (the start-up lines) is cut to chunks here.
      for (let at = 0; at < rows.length; at += options.batchSize) {
        enqueue(toPiece(table, rows.slice(at, at + options.batchSize), 0));
      }
      if (count >= options.batchSize) scheduleFlush();
      return true;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
      closed = true;
      // A retry queued by the last flush gets its final attempts now, not never.
      while (count > 0) await flush();
    },
    pending: () => count,
  };
}
