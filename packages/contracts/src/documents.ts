import { z } from "zod";
import type { SUBSCRIPTION_TIERS } from "./plans";
import { ZWorkspaceScope } from "./workspaces";

// ---------------------------------------------------------------------------------------
// Documents (decision 036): files a user uploads, extracted into chunks, searched by runs.
// Decision 036 explains storage, extraction and the index.
// ---------------------------------------------------------------------------------------

/** What a file is, decided from its content (the name's extension only picks among text kinds). */
export const DOCUMENT_KINDS = ["pdf", "docx", "text", "markdown", "csv", "json", "code"] as const;
export const ZDocumentKind = z.enum(DOCUMENT_KINDS);
export type TDocumentKind = z.infer<typeof ZDocumentKind>;

export const DOCUMENT_KIND_LABELS: Record<TDocumentKind, string> = {
  pdf: "PDF",
  docx: "Word",
  text: "Text",
  markdown: "Markdown",
  csv: "CSV",
  json: "JSON",
  code: "Source code",
};

/** A document is searchable only when `ready`; `failed` carries the reason and has no chunks. */
export const DOCUMENT_STATUSES = ["processing", "ready", "failed"] as const;
export const ZDocumentStatus = z.enum(DOCUMENT_STATUSES);
export type TDocumentStatus = z.infer<typeof ZDocumentStatus>;

/** `hybrid` when an embedding model is configured (full text + vectors), else `keyword`. */
export const SEARCH_MODES = ["keyword", "hybrid"] as const;
export const ZSearchMode = z.enum(SEARCH_MODES);
export type TSearchMode = z.infer<typeof ZSearchMode>;

/** Where files are kept: under DATA_DIR, or an S3-compatible bucket (S3_BUCKET). */
export const DOCUMENT_STORES = ["local", "s3"] as const;
export const ZDocumentStore = z.enum(DOCUMENT_STORES);
export type TDocumentStore = z.infer<typeof ZDocumentStore>;

/** The multipart field that carries the file of `POST /api/documents` (one file per request). */
export const DOCUMENT_UPLOAD_FIELD = "file";
/**
 * The optional multipart field of `POST /api/documents` naming the workspace the document
 * goes into (decision 040); it must come BEFORE the file. Left out: the personal workspace.
 */
export const DOCUMENT_WORKSPACE_FIELD = "workspace_id";

/** `GET /api/documents?workspace_id=`: one workspace's documents (the personal one by default). */
export const ZDocumentsQuery = ZWorkspaceScope;
export type TDocumentsQuery = z.infer<typeof ZDocumentsQuery>;
export const DOCUMENT_NAME_MAX = 255;
export const DOCUMENT_SEARCH_QUERY_MAX = 500;
export const DOCUMENT_SEARCH_LIMIT_MAX = 50;

const MB = 1024 * 1024;
/** Storage per subscription tier, in bytes: all of a user's files count, failed ones too. */
export const DOCUMENT_QUOTA_BYTES: Readonly<Record<(typeof SUBSCRIPTION_TIERS)[number], number>> = {
  free: 50 * MB,
  starter: 500 * MB,
  pro: 2 * 1024 * MB,
  "pro+": 10 * 1024 * MB,
  enterprise: 50 * 1024 * MB,
};

/** Error codes of refused uploads and document calls (beside the general ERROR_CODES). */
export const DOCUMENT_ERROR_CODES = {
  unsupportedType: "document_unsupported_type",
  tooLarge: "document_too_large",
  quotaExceeded: "document_quota_exceeded",
  empty: "document_empty",
  missingFile: "document_missing_file",
  notReady: "document_not_ready",
  /** Attaching ids that are not documents of the session's workspace. */
  notFound: "document_not_found",
} as const;

/** A session the document is attached to (`session_documents`). */
export const ZDocumentSessionRef = z.object({ id: z.string(), title: z.string() });
export type TDocumentSessionRef = z.infer<typeof ZDocumentSessionRef>;

export const ZDocument = z.object({
  id: z.string(),
  name: z.string(),
  kind: ZDocumentKind,
  /** The detected type, e.g. application/pdf, text/markdown. Downloads are always octet-stream. */
  media_type: z.string(),
  size_bytes: z.number().int(),
  /** PDF pages; null for other kinds and until extracted. */
  pages: z.number().int().nullable(),
  status: ZDocumentStatus,
  /** Why extraction failed; null unless status is failed. */
  failure_reason: z.string().nullable(),
  chunk_count: z.number().int(),
  /**
   * The embedding model its chunks were embedded with; null: found by keyword search only
   * (no embedding model then, or the owner's credits did not cover the embeddings).
   */
  embedding_model: z.string().nullable(),
  sessions: z.array(ZDocumentSessionRef).describe("Sessions this document is attached to"),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TDocument = z.infer<typeof ZDocument>;

export const ZDocumentUsage = z.object({
  used_bytes: z.number().int(),
  quota_bytes: z.number().int(),
  /** The per-file limit (DOCUMENT_MAX_MB). */
  max_file_bytes: z.number().int(),
});
export type TDocumentUsage = z.infer<typeof ZDocumentUsage>;

export const ZDocumentsResponse = z.object({
  documents: z.array(ZDocument),
  usage: ZDocumentUsage,
  search_mode: ZSearchMode,
  /** The embedding model of hybrid search (EMBEDDING_MODEL); null when search is keyword-only. */
  embedding_model: z.string().nullable(),
  store: ZDocumentStore,
});
export type TDocumentsResponse = z.infer<typeof ZDocumentsResponse>;

export const ZDocumentResponse = z.object({ document: ZDocument });
export type TDocumentResponse = z.infer<typeof ZDocumentResponse>;

export const ZDocumentParams = z.object({ id: z.uuid() });
export type TDocumentParams = z.infer<typeof ZDocumentParams>;

export const ZRenameDocumentRequest = z.object({
  name: z.string().trim().min(1, "is required").max(DOCUMENT_NAME_MAX),
});
export type TRenameDocumentRequest = z.infer<typeof ZRenameDocumentRequest>;

export const ZDeleteDocumentResponse = z.object({ deleted: z.literal(true) });
export type TDeleteDocumentResponse = z.infer<typeof ZDeleteDocumentResponse>;

/** One piece of extracted text, in reading order (`ordinal` from 0). */
export const ZDocumentChunk = z.object({
  id: z.string(),
  ordinal: z.number().int(),
  page: z.number().int().nullable(),
  section: z.string().nullable(),
  text: z.string(),
});
export type TDocumentChunk = z.infer<typeof ZDocumentChunk>;

export const ZDocumentChunksResponse = z.object({
  document_id: z.string(),
  chunks: z.array(ZDocumentChunk),
});
export type TDocumentChunksResponse = z.infer<typeof ZDocumentChunksResponse>;

/** A retrieved chunk with its source, as runs receive and cite it. */
export const ZPassage = z.object({
  chunk_id: z.string(),
  document_id: z.string(),
  document_name: z.string(),
  page: z.number().int().nullable(),
  section: z.string().nullable(),
  text: z.string(),
  /** Higher is better; comparable only within one search. */
  score: z.number(),
});
export type TPassage = z.infer<typeof ZPassage>;

/**
 * Highlight markers inside `snippet`: the server never sends HTML, the web splits on these
 * (`splitHighlights`) and renders the marked parts as text in <mark>. Private-use characters,
 * removed from extracted text, so a document cannot forge them.
 */
export const HIGHLIGHT_START = "\uE000";
export const HIGHLIGHT_END = "\uE001";

export const ZSearchPassage = ZPassage.extend({
  ordinal: z.number().int(),
  /** A short excerpt around the matches, with HIGHLIGHT_START/END around each match. */
  snippet: z.string(),
});
export type TSearchPassage = z.infer<typeof ZSearchPassage>;

export const ZDocumentSearchQuery = z.object({
  q: z.string().trim().min(1, "is required").max(DOCUMENT_SEARCH_QUERY_MAX),
  /** Comma-separated document ids; ids outside the workspace or unknown are ignored. */
  document_ids: z.string().max(10_000).optional(),
  limit: z.coerce.number().int().min(1).max(DOCUMENT_SEARCH_LIMIT_MAX).default(10),
  workspace_id: ZWorkspaceScope.shape.workspace_id,
});
export type TDocumentSearchQuery = z.infer<typeof ZDocumentSearchQuery>;

export const ZDocumentSearchResponse = z.object({
  query: z.string(),
  mode: ZSearchMode,
  passages: z.array(ZSearchPassage),
});
export type TDocumentSearchResponse = z.infer<typeof ZDocumentSearchResponse>;

export const ZPassageParams = z.object({ chunkId: z.uuid() });
export type TPassageParams = z.infer<typeof ZPassageParams>;

export const ZPassageResponse = z.object({
  passage: ZPassage.extend({ ordinal: z.number().int() }),
});
export type TPassageResponse = z.infer<typeof ZPassageResponse>;

/** A snippet cut into plain and highlighted parts, for rendering as text. */
export function splitHighlights(snippet: string): { text: string; highlighted: boolean }[] {
  const parts: { text: string; highlighted: boolean }[] = [];
  let rest = snippet;
  while (rest.length > 0) {
    const start = rest.indexOf(HIGHLIGHT_START);
    if (start < 0) {
      parts.push({ text: rest, highlighted: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), highlighted: false });
    const end = rest.indexOf(HIGHLIGHT_END, start + 1);
    const stop = end < 0 ? rest.length : end;
    const marked = rest.slice(start + 1, stop);
    if (marked.length > 0) parts.push({ text: marked, highlighted: true });
    rest = rest.slice(stop + 1);
  }
  return parts;
}

/** Parses the `document_ids` query value: trimmed, non-empty, unique. */
export function parseDocumentIds(value: string | undefined): string[] {
  if (!value) return [];
  return [
    ...new Set(
      value
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id.length > 0),
    ),
  ];
}
