import { ERROR_CODES, MEMORY_MESSAGES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { findWorkspaceAccess, requireRole } from "../workspaces/workspace-access";

/**
 * Whether `userId` may approve, reject, edit or delete one memory (decision 040): a member
 * of its workspace for the memories their own runs proposed, an admin or owner for anyone's.
 * The same 404 for a memory of a workspace the user is not in as for one that does not exist.
 */
export async function requireMemoryChange(
  db: Queryable,
  userId: string,
  memoryId: string,
): Promise<void> {
  const notFound = () => new AppError(ERROR_CODES.notFound, 404, MEMORY_MESSAGES.notFound);
  if (!isUuid(memoryId)) throw notFound();
  const { rows } = await db.query<{ workspace_id: string; user_id: string }>(
    "SELECT workspace_id, user_id FROM memories WHERE id = $1",
    [memoryId],
  );
  const row = rows[0];
  const access = row ? await findWorkspaceAccess(db, userId, row.workspace_id) : null;
  if (!row || !access) throw notFound();
  requireRole(access, row.user_id === userId ? "member" : "admin");
}
