import { z } from "zod";
import { ZCreditAmount } from "./money";
import { ZRun } from "./runs";
import { ZAgentPreferences, ZChatMessage, ZSessionStatus } from "./sessions";

// ---------------------------------------------------------------------------------------
// Session export and import (issue 14): one lossless, versioned JSON document per session.
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

/**
 * The Critic's verdict on a run's drafts (the `critic.verdict` run event): the overall score,
 * the per-draft scores and the drafts sent back for revision.
 */
export const ZExportedCriticVerdict = z.object({
  /** The critic call (run step id) that gave it. */
  call_id: z.string(),
  score: z.number().nullable(),
  bar: z.number(),
  verdict: z.enum(["approve", "revise", "unscored"]),
  draft_scores: z.record(z.string(), z.number()),
  revise_step_ids: z.array(z.string()),
  /** A re-run's review: the re-run call it scored. */
  rerun_call_id: z.string().optional(),
});
export type TExportedCriticVerdict = z.infer<typeof ZExportedCriticVerdict>;

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
});
export type TSessionExport = z.infer<typeof ZSessionExport>;
export type TSessionExportInput = z.input<typeof ZSessionExport>;

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
