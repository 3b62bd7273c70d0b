import {
  EXPORT_ERROR_CODES,
  IMPORTED_TEXT_MAX,
  SESSION_EXPORT_FORMAT,
  SESSION_EXPORT_VERSIONS,
  type TSessionImport,
  ZSessionImport,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";

const MAX_ISSUES = 20;

/**
 * A JSON export as an import reads it: first what it says it is (a file of another kind or
 * of a version this server does not know gets a plain 400 naming it), then the whole schema,
 * then its times and the links inside it (each run's message is in the conversation; no
 * id twice).
 */
export function parseSessionExport(body: unknown): TSessionImport {
  const envelope = (typeof body === "object" && body !== null ? body : {}) as {
    format?: unknown;
    version?: unknown;
  };
  if (envelope.format !== SESSION_EXPORT_FORMAT) {
    throw new AppError(
      EXPORT_ERROR_CODES.unsupportedFormat,
      400,
      `This file is not a Cohort session export (its "format" must be "${SESSION_EXPORT_FORMAT}").`,
    );
  }
  if (typeof envelope.version !== "number" || !SESSION_EXPORT_VERSIONS.includes(envelope.version)) {
    throw new AppError(
      EXPORT_ERROR_CODES.unsupportedVersion,
      400,
      `This export is version ${JSON.stringify(envelope.version ?? null)}, which this server cannot import. Supported: version ${SESSION_EXPORT_VERSIONS.join(", ")}.`,
      { version: envelope.version ?? null, supported: SESSION_EXPORT_VERSIONS },
    );
  }
  const parsed = ZSessionImport.safeParse(body);
  if (!parsed.success) {
    throw invalidExport(
      "This export is damaged or incomplete and cannot be imported.",
      parsed.error.issues.slice(0, MAX_ISSUES).map((issue) => ({
        path: issue.path.join(".") || "(root)",
        message: issue.message,
      })),
    );
  }
  checkTimes(parsed.data);
  checkLinks(parsed.data);
  checkRunTexts(parsed.data);
  return parsed.data;
}

/** The first string longer than `max` anywhere in `value`, with its path. */
function findLongText(value: unknown, max: number, path: string): string | null {
  if (typeof value === "string") return value.length > max ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findLongText(item, max, `${path}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = findLongText(item, max, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

/**
 * A run is model output: no field of it longer than any model call can write (contract's
 * IMPORTED_TEXT_MAX), named by its path like the schema's own issues (decision 052).
 */
function checkRunTexts(data: TSessionImport): void {
  const path = findLongText(data.runs, IMPORTED_TEXT_MAX, "runs");
  if (path) {
    throw invalidExport("This export is damaged or incomplete and cannot be imported.", [
      { path, message: `Too big: expected string to have <=${IMPORTED_TEXT_MAX} characters` },
    ]);
  }
}

function invalidExport(message: string, details?: unknown): AppError {
  return new AppError(EXPORT_ERROR_CODES.invalidExport, 400, message, details);
}

/** Every time must be a date and time a reader agrees on (the database alone takes "today"). */
function checkTimes(data: TSessionImport): void {
  const times = [
    data.session.created_at,
    ...data.messages.map((m) => m.created_at),
    ...data.runs.flatMap((r) => [
      r.created_at,
      r.finished_at,
      ...r.steps.flatMap((s) => [s.started_at, s.finished_at]),
    ]),
  ];
  const bad = times.find((time) => time !== null && Number.isNaN(Date.parse(time)));
  if (bad !== undefined) {
    throw invalidExport(`This export has "${bad}" where a date and time belongs.`);
  }
}

function checkLinks(data: TSessionImport): void {
  const seen = new Set<string>();
  const once = (id: string, what: string) => {
    if (seen.has(id)) throw invalidExport(`This export names the id "${id}" twice (${what}).`);
    seen.add(id);
  };
  for (const message of data.messages) once(message.id, "a message");
  const messages = new Set(data.messages.map((m) => m.id));
  for (const run of data.runs) {
    once(run.id, "a run");
    if (!messages.has(run.message_id)) {
      throw invalidExport(
        `Run "${run.id}" answers message "${run.message_id}", which is not in the export.`,
      );
    }
    for (const step of run.steps) once(step.id, "a run step");
  }
}
