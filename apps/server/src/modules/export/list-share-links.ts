import type { TShareLink } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { findDisplayNames } from "./share-names";
import { SHARE_COLUMNS, type ShareRow, toShareLink } from "./share-row";

/** Every link made to the session, newest first, revoked and expired ones included. */
export async function listShareLinks(
  db: Queryable,
  sessionId: string,
  publicUrl: string,
): Promise<TShareLink[]> {
  const { rows } = await db.query<ShareRow>(
    `SELECT ${SHARE_COLUMNS} FROM share_links WHERE session_id = $1 ORDER BY created_at DESC, id`,
    [sessionId],
  );
  const names = await findDisplayNames(
    db,
    rows.map((row) => row.created_by),
  );
  return rows.map((row) =>
    toShareLink(row, publicUrl, row.created_by ? (names.get(row.created_by) ?? null) : null),
  );
}
