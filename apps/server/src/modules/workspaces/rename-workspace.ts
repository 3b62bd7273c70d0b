import type { TWorkspace } from "@cohort/contracts";
import type { Db } from "../../db/client";
import { recordWorkspaceAudit } from "./record-workspace-audit";
import { workspaceNotFound } from "./workspace-access";
import { findWorkspace } from "./workspace-row";

/** Renames a workspace (the caller checked the owner role); unchanged names write no audit line. */
export async function renameWorkspace(
  db: Db,
  userId: string,
  workspaceId: string,
  name: string,
): Promise<TWorkspace> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ name: string }>(
      "SELECT name FROM workspaces WHERE id = $1 FOR UPDATE",
      [workspaceId],
    );
    const before = rows[0];
    if (!before) throw workspaceNotFound();
    if (before.name !== name) {
      await tx.query(
        "UPDATE workspaces SET name = $2, updated_at = clock_timestamp() WHERE id = $1",
        [workspaceId, name],
      );
      await recordWorkspaceAudit(tx, {
        workspaceId,
        actorId: userId,
        action: "workspace.renamed",
        details: { from: before.name, to: name },
      });
    }
    const workspace = await findWorkspace(tx, userId, workspaceId);
    if (!workspace) throw workspaceNotFound();
    return workspace;
  });
}
