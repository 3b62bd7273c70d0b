import type { TShareLink, TWorkspaceShareLink } from "@cohort/contracts";
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

/**
 * Every link made to any session of the workspace, newest first, with the session's title:
 * owners and admins find and revoke them in one place (the caller checked the role).
 */
export async function listWorkspaceShareLinks(
  db: Queryable,
  workspaceId: string,
  publicUrl: string,
): Promise<TWorkspaceShareLink[]> {
  const { rows } = await db.query<ShareRow & { session_title: string }>(
    `SELECT ${SHARE_COLUMNS}, (SELECT title FROM sessions s WHERE s.id = share_links.session_id) AS session_title
     FROM share_links
     WHERE session_id IN (SELECT id FROM sessions WHERE workspace_id = $1)
     ORDER BY created_at DESC, id`,
    [workspaceId],
  );
  const names = await findDisplayNames(
    db,
    rows.map((row) => row.created_by),
  );
  return rows.map((row) => ({
    ...toShareLink(row, publicUrl, row.created_by ? (names.get(row.created_by) ?? null) : null),
    session_title: row.session_title,
  }));
}
