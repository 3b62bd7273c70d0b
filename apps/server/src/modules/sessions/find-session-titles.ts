import type { Queryable } from "../../db/client";

/** The titles of the given sessions, by id (sessions that do not exist are left out). */
export async function findSessionTitles(
  db: Queryable,
  sessionIds: readonly string[],
): Promise<Map<string, string>> {
  if (sessionIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; title: string }>(
    "SELECT id, title FROM sessions WHERE id = ANY($1::uuid[])",
    [sessionIds],
  );
  return new Map(rows.map((row) => [row.id, row.title]));
}
