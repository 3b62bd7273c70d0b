import type { TMemory, TMemoryKind, TMemoryStatus } from "@cohort/contracts";
import { isoTimestamp } from "../../db/client";

export const MEMORY_COLUMNS =
  "id, text, kind, status, source_session_id, source_run_id, created_at, updated_at";

export interface MemoryRow {
  id: string;
  text: string;
  kind: TMemoryKind;
  status: TMemoryStatus;
  source_session_id: string | null;
  source_run_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export function toMemory(row: MemoryRow): TMemory {
  return {
    id: row.id,
    text: row.text,
    kind: row.kind,
    status: row.status,
    source_session_id: row.source_session_id,
    source_run_id: row.source_run_id,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
  };
}
