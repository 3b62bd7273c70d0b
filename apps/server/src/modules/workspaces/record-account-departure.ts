import { DELETED_MEMBER_NAME } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import type { AccountMembership } from "./account-workspaces";
import { recordWorkspaceAudit } from "./record-workspace-audit";

/**
 * What the teams that stay keep of an account being deleted (decision 052): a "member left
 * (account deleted)" line in each one's audit log, and the address no longer in any of their
 * entries (an invitation's target becomes "Deleted member"). Run in the deletion's
 * transaction, before the user row goes.
 */
export async function recordAccountDeparture(
  tx: Queryable,
  user: { id: string; email: string },
  staying: readonly AccountMembership[],
): Promise<void> {
  if (staying.length === 0) return;
  for (const membership of staying) {
    await recordWorkspaceAudit(tx, {
      workspaceId: membership.workspace_id,
      actorId: null,
      action: "member.left",
      target: user.id,
      details: { role: membership.role, account_deleted: true },
    });
  }
  await tx.query(
    `UPDATE workspace_audit_log SET target = $3
     WHERE workspace_id = ANY($1::uuid[]) AND lower(target) = lower($2)`,
    [staying.map((m) => m.workspace_id), user.email, DELETED_MEMBER_NAME],
  );
}
