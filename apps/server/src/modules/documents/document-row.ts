import type {
  TDocument,
  TDocumentKind,
  TDocumentSessionRef,
  TDocumentStatus,
} from "@cohort/contracts";
import { isoTimestamp } from "../../db/client";

export interface DocumentRow {
  id: string;
  name: string;
  kind: TDocumentKind;
  media_type: string;
  size_bytes: number;
  pages: number | null;
  status: TDocumentStatus;
  failure_reason: string | null;
  chunk_count: number;
  embedding_model: string | null;
  sessions: TDocumentSessionRef[] | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The columns of a document as the API shows it, with the sessions it is attached to. */
export const DOCUMENT_COLUMNS = `
  d.id, d.name, d.kind, d.media_type, d.size_bytes, d.pages, d.status, d.failure_reason,
  d.chunk_count, d.embedding_model, d.created_at, d.updated_at,
  (SELECT coalesce(json_agg(json_build_object('id', s.id, 'title', s.title)
            ORDER BY sd.attached_at), '[]'::json)
     FROM session_documents sd JOIN sessions s ON s.id = sd.session_id
    WHERE sd.document_id = d.id) AS sessions`;

export function documentFromRow(row: DocumentRow): TDocument {
  const sessions =
    typeof row.sessions === "string"
      ? (JSON.parse(row.sessions) as TDocumentSessionRef[])
      : (row.sessions ?? []);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    media_type: row.media_type,
    size_bytes: Number(row.size_bytes),
    pages: row.pages,
    status: row.status,
    failure_reason: row.failure_reason,
    chunk_count: row.chunk_count,
    embedding_model: row.embedding_model,
    sessions,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}
