import { z } from "zod";
import { DOCUMENT_NAME_MAX } from "./documents";
import { ZGeneratedImageRef } from "./images";
import { ZCreditAmount } from "./money";
import { ZChatRequest, ZCriticVerdict, ZRun, ZRunToolCall } from "./runs";
import {
  SESSION_TITLE_MAX,
  ZAgentPreferences,
  ZChatMessage,
  ZCreateSessionRequest,
  ZSessionStatus,
} from "./sessions";

// ---------------------------------------------------------------------------------------
// Session export and import (decision 043): one lossless, versioned JSON document per session.
// Markdown and PDF are read from it; an import turns it back into a session.
// ---------------------------------------------------------------------------------------

/** What a JSON export says it is: anything else is not a Cohort session export. */
export const SESSION_EXPORT_FORMAT = "cohort.session";
/** The version this server writes. */
export const SESSION_EXPORT_VERSION = 1;
/** The versions this server can import (an older one stays importable once a newer exists). */
export const SESSION_EXPORT_VERSIONS: readonly number[] = [1];

export const SESSION_EXPORT_ROUTES = {
  /** GET: the session as a download (viewer and above in its workspace). */
  export: (sessionId: string, format: TExportFormat) =>
    `/api/sessions/${encodeURIComponent(sessionId)}/export?format=${format}`,
  /** POST: a JSON export as a new session (`?workspace_id=`: member and above). */
  import: "/api/sessions/import",
} as const;

/** The largest JSON export an import accepts. */
export const SESSION_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export const EXPORT_FORMATS = ["markdown", "json", "pdf"] as const;
export const ZExportFormat = z.enum(EXPORT_FORMATS);
export type TExportFormat = z.infer<typeof ZExportFormat>;

/** GET /api/sessions/{id}/export?format=… */
export const ZSessionExportQuery = z.object({ format: ZExportFormat.default("json") });
export type TSessionExportQuery = z.infer<typeof ZSessionExportQuery>;

/** The session's own settings and totals, as they were when exported. */
export const ZExportedSession = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  coordinator_model: z.string(),
  manual_agent_selection: z.boolean(),
  agent_preferences: ZAgentPreferences.nullable(),
  budget_credits: ZCreditAmount.positive().nullable(),
  /** What its runs cost where they ran; an imported copy shows it as history only. */
  spent_credits: ZCreditAmount.min(0),
  status: ZSessionStatus,
  created_at: z.string(),
  /** The workspace it belonged to (not used by an import: the importer chooses). */
  workspace_id: z.string().optional(),
  /** Set when the exported session was itself an import: when it was imported. */
  imported_at: z.string().nullable().optional(),
});
export type TExportedSession = z.infer<typeof ZExportedSession>;

/** The Critic's verdict on a run's drafts, as its `critic.verdict` event carried it. */
export const ZExportedCriticVerdict = ZCriticVerdict;
export type TExportedCriticVerdict = z.infer<typeof ZExportedCriticVerdict>;

/**
 * A tool call of a run (decision 058), from its `tool.call`, `tool.result` and
 * approval events: what ran, with which arguments, how it ended, who approved it.
 */
export const ZExportedToolCall = ZRunToolCall;
export type TExportedToolCall = z.infer<typeof ZExportedToolCall>;

/**
 * A run with everything stored about it: status, mode, times, failure, plan, every model
 * call (role, model, provider, tokens, credits, output, versions and re-runs, synthesis
 * versions), the passages given and cited, the memories used, the Critic's verdicts.
 */
export const ZExportedRun = ZRun.extend({
  passages: ZRun.shape.passages.unwrap().default([]),
  cited: ZRun.shape.cited.unwrap().default([]),
  memories: ZRun.shape.memories.unwrap().default([]),
  /** True for a run that came in with an import: it never ran here and cost nothing here. */
  imported: z.boolean().default(false),
  critic_verdicts: z.array(ZExportedCriticVerdict).default([]),
  /** Its tool calls, in order (decision 058). */
  tool_calls: z.array(ZExportedToolCall).default([]),
});
export type TExportedRun = z.infer<typeof ZExportedRun>;

/** A document the session worked from, by name only (its file is not part of the export). */
export const ZExportedDocument = z.object({ id: z.string(), name: z.string() });
export type TExportedDocument = z.infer<typeof ZExportedDocument>;

export const ZSessionExport = z.object({
  format: z.literal(SESSION_EXPORT_FORMAT),
  version: z.literal(SESSION_EXPORT_VERSION),
  exported_at: z.string(),
  session: ZExportedSession,
  messages: z.array(ZChatMessage),
  runs: z.array(ZExportedRun),
  /** The documents attached to the session when it was exported. */
  documents: z.array(ZExportedDocument).default([]),
  /**
   * The pictures image models made in it (decision 064), by reference: the texts show them
   * by `url`; the files stay on the server that made them.
   */
  images: z.array(ZGeneratedImageRef).default([]),
});
export type TSessionExport = z.infer<typeof ZSessionExport>;
export type TSessionExportInput = z.input<typeof ZSessionExport>;

/**
 * The longest text an import keeps in a model's answer or any field of a run: 25 times what
 * the longest call may write (4,096 output tokens), so a real export always fits and a
 * made-up one cannot store megabytes per field (decision 052).
 */
export const IMPORTED_TEXT_MAX = 100_000;

/** What an imported copy's title ends with, so it is never mistaken for the original. */
export const IMPORTED_TITLE_SUFFIX = " (imported)";

/** The imported copy's title: the original's, shortened to leave room for the suffix. */
export function importedTitle(title: string): string {
  const base = title.endsWith(IMPORTED_TITLE_SUFFIX)
    ? title.slice(0, -IMPORTED_TITLE_SUFFIX.length)
    : title;
  return `${base.slice(0, SESSION_TITLE_MAX - IMPORTED_TITLE_SUFFIX.length).trimEnd()}${IMPORTED_TITLE_SUFFIX}`;
}

/**
 * The mark of an imported copy: "Imported from export of 5 Dec" (the year too when it is not
 * this year's), in UTC so server and browser say the same.
 */
export function importedFromLabel(exportedAt: string, now = new Date()): string {
  const at = new Date(exportedAt);
  const sameYear = at.getUTCFullYear() === now.getUTCFullYear();
  const date = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    ...(sameYear ? {} : { year: "numeric" }),
    timeZone: "UTC",
  }).format(at);
  return `Imported from export of ${date}`;
}

/**
 * An export as an import reads it: the same document, each field held to the contract that
 * creates it here — the session's settings to session creation's, a user's message to
 * sending one, a document's name to the documents' — so an import stores nothing a person
 * could not have typed (decision 052). Answers and run fields are model output: at most
 * IMPORTED_TEXT_MAX characters each (checked over the whole run by the import).
 */
export const ZSessionImport = ZSessionExport.extend({
  exported_at: z.iso.datetime({ offset: true }),
  session: ZExportedSession.extend({
    title: ZCreateSessionRequest.shape.title,
    description: ZCreateSessionRequest.shape.description,
    coordinator_model: ZCreateSessionRequest.shape.coordinator_model,
    manual_agent_selection: ZCreateSessionRequest.shape.manual_agent_selection,
    agent_preferences: ZCreateSessionRequest.shape.agent_preferences,
    budget_credits: ZCreateSessionRequest.shape.budget_credits,
  }),
  messages: z.array(
    z.discriminatedUnion("role", [
      ZChatMessage.extend({
        role: z.literal("user"),
        content: ZChatRequest.shape.message,
      }),
      ZChatMessage.extend({
        role: z.literal("assistant"),
        content: z.string().max(IMPORTED_TEXT_MAX),
      }),
    ]),
  ),
  documents: z
    .array(ZExportedDocument.extend({ name: z.string().trim().min(1).max(DOCUMENT_NAME_MAX) }))
    .default([]),
});
export type TSessionImport = z.infer<typeof ZSessionImport>;

/** What an import checks first, to name an unknown format or version plainly. */
export const ZSessionExportEnvelope = z.object({ format: z.unknown(), version: z.unknown() });

/** POST /api/sessions/import?workspace_id=… */
export const ZSessionImportQuery = z.object({ workspace_id: z.uuid().optional() });

export const ZSessionImportResponse = z.object({
  session_id: z.string(),
  title: z.string(),
  runs: z.number().int(),
  messages: z.number().int(),
});
export type TSessionImportResponse = z.infer<typeof ZSessionImportResponse>;

export const EXPORT_ERROR_CODES = {
  unsupportedFormat: "unsupported_export_format",
  unsupportedVersion: "unsupported_export_version",
  invalidExport: "invalid_export",
  /** 503 with Retry-After: every PDF renderer of the instance is busy (decision 050). */
  pdfBusy: "pdf_renderers_busy",
  /** 422: the PDF took more time or memory than a render may (decision 050). */
  pdfTooLarge: "pdf_too_large",
} as const;

/** A filename for a download from a session's title: letters, digits, dashes; never empty. */
export function exportFilename(title: string, extension: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "")
    .toLowerCase();
  return `${base || "session"}.${extension}`;
}
