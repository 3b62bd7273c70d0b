import { ERROR_CODES, SHARE_MESSAGES, type TShareLink } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { findSessionFor } from "../sessions/find-session";
import { requireRole } from "../workspaces/workspace-access";
import { findDisplayNames } from "./share-names";
import { SHARE_COLUMNS, type ShareRow, toShareLink } from "./share-row";

const notFound = () => new AppError(ERROR_CODES.notFound, 404, SHARE_MESSAGES.notFound);

/**
 * Revokes a link at once (the next view and the next poll of a live stream see it): its
 * creator (a member still) or an admin or owner of the session's workspace. Anyone outside
 * the workspace gets the 404 of a link that does not exist. Revoking twice keeps the
 * first time.
 */
export async function revokeShareLink(
  db: Queryable,
  input: { shareId: string; userId: string; publicUrl: string },
): Promise<TShareLink> {
  if (!isUuid(input.shareId)) throw notFound();
  const found = await db.query<{ session_id: string; created_by: string | null }>(
    "SELECT session_id, created_by FROM share_links WHERE id = $1",
    [input.shareId],
  );
  const share = found.rows[0];
  if (!share) throw notFound();
  // Outside the session's workspace: the link's 404, not the session's.
  const session = await findSessionFor(db, input.userId, share.session_id).catch(
    (error: unknown) => {
      throw error instanceof AppError && error.statusCode === 404 ? notFound() : error;
    },
  );
  const own = share.created_by === input.userId;
  if (!own) requireRole(session, "admin");
  else requireRole(session, "member");
  const { rows } = await db.query<ShareRow>(
    `UPDATE share_links SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
     RETURNING ${SHARE_COLUMNS}`,
    [input.shareId],
  );
  const row = rows[0] as ShareRow;
  const names = await findDisplayNames(db, [row.created_by]);
  return toShareLink(
    row,
    input.publicUrl,
    row.created_by ? (names.get(row.created_by) ?? null) : null,
  );
}
