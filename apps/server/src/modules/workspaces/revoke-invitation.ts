import { ERROR_CODES, WORKSPACE_MESSAGES } from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import { recordWorkspaceAudit } from "./record-workspace-audit";

/** Withdraws a pending invitation: its link answers 404 from now on. */
export async function revokeInvitation(
  db: Db,
  input: { workspaceId: string; actorId: string; invitationId: string },
): Promise<void> {
  const { workspaceId, actorId, invitationId } = input;
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ email: string; role: string }>(
      `UPDATE workspace_invitations SET revoked_at = clock_timestamp()
       WHERE id = $1 AND workspace_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL
       RETURNING email, role`,
      [invitationId, workspaceId],
    );
    const revoked = rows[0];
    if (!revoked) {
      throw new AppError(ERROR_CODES.notFound, 404, WORKSPACE_MESSAGES.invitationNotFound);
    }
    await recordWorkspaceAudit(tx, {
      workspaceId,
      actorId,
      action: "invitation.revoked",
      target: revoked.email,
      details: { role: revoked.role, invitation_id: invitationId },
    });
  });
}
