import {
  TEAM_WORKSPACES_PER_USER,
  type TWorkspace,
  WORKSPACE_ERROR_CODES,
  WORKSPACE_MESSAGES,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import { recordWorkspaceAudit } from "./record-workspace-audit";
import { findWorkspace } from "./workspace-row";

/**
 * Creates a team workspace with the creator as its owner. The creator's personal workspace
 * row is locked while counting, so parallel creates cannot together pass the limit (which
 * counts teams the user owns: a team handed to someone else no longer counts).
 */
export async function createWorkspace(db: Db, userId: string, name: string): Promise<TWorkspace> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT id FROM workspaces WHERE id = $1 FOR UPDATE", [userId]);
    const { rows: counted } = await tx.query<{ owned: number | string }>(
      `SELECT count(*) AS owned FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
       WHERE m.user_id = $1 AND m.role = 'owner' AND w.kind = 'team'`,
      [userId],
    );
    if (Number(counted[0]?.owned ?? 0) >= TEAM_WORKSPACES_PER_USER) {
      throw new AppError(WORKSPACE_ERROR_CODES.limitReached, 409, WORKSPACE_MESSAGES.limitReached, {
        limit: TEAM_WORKSPACES_PER_USER,
      });
    }
    const { rows } = await tx.query<{ id: string }>(
      "INSERT INTO workspaces (kind, name, created_by) VALUES ('team', $1, $2) RETURNING id",
      [name, userId],
    );
    const id = rows[0]?.id as string;
    await tx.query(
      "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'owner')",
      [id, userId],
    );
    await recordWorkspaceAudit(tx, {
      workspaceId: id,
      actorId: userId,
      action: "workspace.created",
      details: { name },
    });
    return (await findWorkspace(tx, userId, id)) as TWorkspace;
  });
}
