import type { Db } from "../../db/client";
import { memoryActive } from "./memory-access";
import { anyWordQuery } from "./search-query";

/**
 * The workspace's approved memories relevant to the task, best first; [] when the acting
 * user has paused memory, their plan lacks it, or none match. Relevance is the full-text
 * search the documents use (English stemming, ts_rank_cd), over any word of the task.
 */
export async function findRelevantMemories(
  db: Db,
  input: { workspaceId: string; userId: string; task: string; limit: number },
): Promise<{ id: string; text: string }[]> {
  const query = anyWordQuery(input.task);
  if (!query || input.limit <= 0) return [];
  if (!(await memoryActive(db, input.userId)).active) return [];
  const { rows } = await db.query<{ id: string; text: string }>(
    `SELECT id, text FROM memories
     WHERE workspace_id = $1 AND status = 'approved' AND search @@ to_tsquery('english', $2)
     ORDER BY ts_rank_cd(search, to_tsquery('english', $2)) DESC, updated_at DESC
     LIMIT $3`,
    [input.workspaceId, query, input.limit],
  );
  return rows;
}
