import type { TMemory } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from "./memory-row";
import { anyWordQuery } from "./search-query";

/** Bounds a page: memories are short lines, and a user keeps tens to hundreds of them. */
const LIST_LIMIT = 500;

/**
 * A workspace's approved memories (or open proposals), newest first; with `q`, those
 * matching any of its words (the full-text search, as typed: prefixes count), best match
 * first. The caller has checked the user may read the workspace.
 */
export async function listMemories(
  db: Queryable,
  workspaceId: string,
  q: string | undefined,
  status: "approved" | "proposed" = "approved",
): Promise<TMemory[]> {
  const query = q ? anyWordQuery(q, { prefix: true }) : null;
  if (q?.trim() && !query) return [];
  const { rows } = query
    ? await db.query<MemoryRow>(
        `SELECT ${MEMORY_COLUMNS} FROM memories
         WHERE workspace_id = $1 AND status = $4 AND search @@ to_tsquery('english', $2)
         ORDER BY ts_rank_cd(search, to_tsquery('english', $2)) DESC, updated_at DESC
         LIMIT $3`,
        [workspaceId, query, LIST_LIMIT, status],
      )
    : await db.query<MemoryRow>(
        `SELECT ${MEMORY_COLUMNS} FROM memories
         WHERE workspace_id = $1 AND status = $3
         ORDER BY updated_at DESC, seq DESC LIMIT $2`,
        [workspaceId, LIST_LIMIT, status],
      );
  return rows.map(toMemory);
}

/**
 * Every memory a run proposed, in the order proposed, whatever was decided since (the caller
 * has checked the user may read the run).
 */
export async function listRunProposals(db: Queryable, runId: string): Promise<TMemory[]> {
  const { rows } = await db.query<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories WHERE source_run_id = $1 ORDER BY seq`,
    [runId],
  );
  return rows.map(toMemory);
}

/** Every memory the user has, any state (the export). */
export async function listAllMemories(db: Queryable, userId: string): Promise<TMemory[]> {
  const { rows } = await db.query<MemoryRow>(
    `SELECT ${MEMORY_COLUMNS} FROM memories WHERE user_id = $1 ORDER BY seq`,
    [userId],
  );
  return rows.map(toMemory);
}

/**
 * The workspace's newest approved lines, so the model does not propose them again in other
 * words.
 */
export async function listKnownTexts(
  db: Queryable,
  workspaceId: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await db.query<{ text: string }>(
    `SELECT text FROM memories WHERE workspace_id = $1 AND status = 'approved'
     ORDER BY updated_at DESC LIMIT $2`,
    [workspaceId, limit],
  );
  return rows.map((r) => r.text);
}
