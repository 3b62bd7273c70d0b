import type { TMemory } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from "./memory-row";
import type { ProposedLine } from "./parse-memory-lines";

export interface ProposalSource {
  /** The run's session's workspace: the memories are the workspace's (decision 040). */
  workspaceId: string;
  /** Who started the run. */
  userId: string;
  sessionId: string;
  runId: string;
  /** Auto-save: stored as approved, without asking. */
  approved: boolean;
}

/**
 * Stores a run's proposals; a line the user already has (in any state, rejected included, by
 * its text ignoring case) is skipped, so nothing is proposed twice. Returns what was stored.
 */
export async function storeProposals(
  db: Queryable,
  source: ProposalSource,
  lines: readonly ProposedLine[],
): Promise<TMemory[]> {
  if (lines.length === 0) return [];
  const { rows } = await db.query<MemoryRow>(
    `INSERT INTO memories
       (user_id, text, kind, status, source_session_id, source_run_id, workspace_id)
     SELECT $1, line.text, line.kind, $2, $3, $4, $7
     FROM unnest($5::text[], $6::text[]) WITH ORDINALITY AS line (text, kind, n)
     ORDER BY line.n
     ON CONFLICT (user_id, lower(text)) DO NOTHING
     RETURNING ${MEMORY_COLUMNS}`,
    [
      source.userId,
      source.approved ? "approved" : "proposed",
      source.sessionId,
      source.runId,
      lines.map((l) => l.text),
      lines.map((l) => l.kind),
      source.workspaceId,
    ],
  );
  return rows.map(toMemory);
}
