import type { Db } from "../../db/client";
import type { Realtime } from "../../platform/realtime";
import { dropMember } from "./drop-member-sockets";
import { lockMemberChange, requireAnotherOwner, requireMayManage } from "./member-rules";
import { recordWorkspaceAudit } from "./record-workspace-audit";

/**
 * Takes a member out of a team workspace: an admin removing someone (owners remove admins
 * and owners), or anyone leaving by removing themselves. The last owner can do neither. Once
 * committed, the member's open sockets leave the workspace's rooms, on every instance.
 */
export async function removeMember(
  db: Db,
  realtime: Realtime,
  input: { workspaceId: string; actorId: string; userId: string },
): Promise<void> {
  const { workspaceId, actorId, userId } = input;
  const leaving = actorId === userId;
  await db.transaction(async (tx) => {
    const least = leaving ? "viewer" : "admin";
    const { roles, actorRole, targetRole: role } = await lockMemberChange(tx, input, least);
    if (!leaving) requireMayManage(actorRole, role);
    requireAnotherOwner(roles, userId);
    await tx.query("DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2", [
      workspaceId,
      userId,
    ]);
    await recordWorkspaceAudit(tx, {
      workspaceId,
      actorId,
      action: leaving ? "member.left" : "member.removed",
      target: userId,
      details: { role },
    });
  });
  await dropMember(db, realtime, workspaceId, userId);
}
