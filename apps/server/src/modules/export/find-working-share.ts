import { ERROR_CODES, SHARE_MESSAGES, SHARE_TOKEN_PATTERN } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { SHARE_COLUMNS, SHARE_WORKS, type ShareRow } from "./share-row";

/** Unknown, revoked and expired links all answer this, so none can be told apart. */
export const shareNotFound = () => new AppError(ERROR_CODES.notFound, 404, SHARE_MESSAGES.notFound);

/** The link if it works; null when it is unknown, revoked or expired. */
export async function findWorkingShare(db: Queryable, token: string): Promise<ShareRow | null> {
  if (!SHARE_TOKEN_PATTERN.test(token)) return null;
  const { rows } = await db.query<ShareRow>(
    `SELECT ${SHARE_COLUMNS} FROM share_links WHERE token = $1 AND ${SHARE_WORKS}`,
    [token],
  );
  return rows[0] ?? null;
}

/** Opens a link for a viewer: counts the view, or throws the one 404. */
export async function openShare(db: Queryable, token: string): Promise<ShareRow> {
  if (!SHARE_TOKEN_PATTERN.test(token)) throw shareNotFound();
  const { rows } = await db.query<ShareRow>(
    `UPDATE share_links SET view_count = view_count + 1, last_viewed_at = now()
     WHERE token = $1 AND ${SHARE_WORKS} RETURNING ${SHARE_COLUMNS}`,
    [token],
  );
  const row = rows[0];
  if (!row) throw shareNotFound();
  return row;
}

/** Whether the link still works (a live stream asks on every poll). */
export async function shareStillWorks(db: Queryable, shareId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM share_links WHERE id = $1 AND ${SHARE_WORKS}`, [
    shareId,
  ]);
  return rows.length > 0;
}
