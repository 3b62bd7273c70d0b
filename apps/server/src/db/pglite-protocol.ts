/**
 * The messages between the server's thread and the PGlite worker (pglite-worker.ts). Both
 * sides import this file; everything crosses by structured clone.
 */

/** What the worker opens: the data directory (absent: in memory) and postgresql.conf lines. */
export interface PgliteWorkerData {
  dataDir: string | undefined;
  conf: string;
}

/** `tx` names an open transaction (from a `begin` reply); null runs on the connection itself. */
export type PgliteCommand =
  | {
      op: "query";
      sql: string;
      params: unknown[] | undefined;
      tx: number | null;
      /** A prepared statement's name (client.ts `prepared`): parsed once, then only bound. */
      name?: string | undefined;
    }
  | { op: "exec"; sql: string; tx: number | null }
  | { op: "begin" }
  | { op: "end"; tx: number; commit: boolean }
  | { op: "close" };

/** A command as sent: `id` pairs it with its reply. */
export type PgliteRequest = PgliteCommand & { id: number };

/** The worker's answer to request `id`; id 0 answers the opening of the database. */
export type PgliteReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: WireError };

/**
 * An error as it crosses: its message and its plain fields. A database error's SQLSTATE
 * `code`, `detail`, `constraint`, `table`… are what callers read (isUniqueViolation), and a
 * structured clone of an Error keeps only its message.
 */
export interface WireError {
  message: string;
  fields: Record<string, string | number>;
}

export function toWireError(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === "string" || typeof value === "number") fields[key] = value;
  }
  return { message: error.message, fields };
}

export function fromWireError(wire: WireError): Error {
  return Object.assign(new Error(wire.message), wire.fields);
}
