import type { TWorkspaceRole } from "@cohort/contracts";
import type { Db } from "../../db/client";
import type { Realtime } from "../../platform/realtime";
import { notifyWorkspaceChanged } from "./drop-member-sockets";
import { lockMemberChange, requireAnotherOwner, requireMayManage } from "./member-rules";
import { recordWorkspaceAudit } from "./record-workspace-audit";

/**
 * Gives a member another role. Admins move people between member and viewer; only owners
 * touch admins and owners (either side of the change); the last owner stays an owner. The
 * member's open sockets hear `workspace.changed` at once; every later action is checked
 * against the new role anyway (a viewer can still read, so their sockets keep their rooms).
 */
export async function changeMemberRole(
  db: Db,
  realtime: Realtime,
  input: { workspaceId: string; actorId: string; userId: string; role: TWorkspaceRole },
): Promise<void> {
  const { workspaceId, actorId, userId, role } = input;
  const changed = await db.transaction(async (tx) => {
    const { roles, actorRole, targetRole: from } = await lockMemberChange(tx, input, "admin");
    if (from === role) return false;
    requireMayManage(actorRole, from, role);
    if (role !== "owner") requireAnotherOwner(roles, userId);
    await tx.query(
      `UPDATE workspace_members SET role = $3, updated_at = clock_timestamp()
       WHERE workspace_id = $1 AND user_id = $2`,
      [workspaceId, userId, role],
    );
    await recordWorkspaceAudit(tx, {
      workspaceId,
      actorId,
      action: "member.role_changed",
      target: userId,
      details: { from, to: role },
    });
    return true;
  });
  if (changed) notifyWorkspaceChanged(realtime, userId, workspaceId, role);
}
