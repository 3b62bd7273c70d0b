import {
  INVITATION_TTL_DAYS,
  type TInvitableRole,
  type TWorkspaceInvitation,
  WORKSPACE_ERROR_CODES,
  WORKSPACE_MESSAGES,
} from "@cohort/contracts";
import type { Db } from "../../db/client";
import { AppError } from "../../platform/errors";
import { hashOpaqueToken, newOpaqueToken } from "../../platform/opaque-token";
import { findInvitationById } from "./list-invitations";
import { lockedActorRole, lockMemberRoles, requireMayManage } from "./member-rules";
import { recordWorkspaceAudit } from "./record-workspace-audit";

export interface CreatedInvitation {
  invitation: TWorkspaceInvitation;
  /** The link's secret: only mailed, never stored (its sha256 is). */
  token: string;
  workspaceName: string;
}

/**
 * Invites an address into a team workspace. The token is 256 random bits, stored only as its
 * digest; a new invitation to an address with one pending replaces it (the old link stops
 * working), so there is one live link per address. Inviting an admin takes an owner, as
 * making one does. 409 when the address already belongs to a member.
 */
export async function createInvitation(
  db: Db,
  input: { workspaceId: string; actorId: string; email: string; role: TInvitableRole },
): Promise<CreatedInvitation> {
  const { workspaceId, actorId, email, role } = input;
  const token = newOpaqueToken();
  return db.transaction(async (tx) => {
    const roles = await lockMemberRoles(tx, workspaceId);
    requireMayManage(lockedActorRole(roles, actorId, "admin"), role);
    const { rows: members } = await tx.query(
      `SELECT 1 FROM workspace_members m JOIN users u ON u.id = m.user_id
       WHERE m.workspace_id = $1 AND lower(u.email) = lower($2)`,
      [workspaceId, email],
    );
    if (members.length > 0) {
      throw new AppError(
        WORKSPACE_ERROR_CODES.alreadyMember,
        409,
        WORKSPACE_MESSAGES.alreadyMember(email),
      );
    }
    await tx.query(
      `UPDATE workspace_invitations SET revoked_at = clock_timestamp()
       WHERE workspace_id = $1 AND lower(email) = lower($2)
         AND accepted_at IS NULL AND revoked_at IS NULL`,
      [workspaceId, email],
    );
    const { rows } = await tx.query<{ id: string; name: string }>(
      `INSERT INTO workspace_invitations (workspace_id, email, role, token_hash, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, clock_timestamp() + make_interval(days => $6))
       RETURNING id, (SELECT name FROM workspaces WHERE id = $1) AS name`,
      [workspaceId, email, role, hashOpaqueToken(token), actorId, INVITATION_TTL_DAYS],
    );
    const created = rows[0] as { id: string; name: string };
    await recordWorkspaceAudit(tx, {
      workspaceId,
      actorId,
      action: "invitation.created",
      target: email,
      details: { role, invitation_id: created.id },
    });
    const invitation = await findInvitationById(tx, workspaceId, created.id);
    if (!invitation) throw new Error("the invitation just made is gone");
    return { invitation, token, workspaceName: created.name };
  });
}
