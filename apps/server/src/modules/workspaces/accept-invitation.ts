import {
  ERROR_CODES,
  type TInvitableRole,
  type TInvitationPreview,
  type TInvitationPublicPreview,
  type TWorkspace,
  WORKSPACE_ERROR_CODES,
  WORKSPACE_MESSAGES,
} from "@cohort/contracts";
import { type Db, isoTimestamp, type Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { hashOpaqueToken } from "../../platform/opaque-token";
import { accountName } from "./list-invitations";
import { recordWorkspaceAudit } from "./record-workspace-audit";
import { workspaceNotFound } from "./workspace-access";
import { findWorkspace } from "./workspace-row";

interface TokenRow {
  id: string;
  workspace_id: string;
  workspace_name: string;
  email: string;
  role: TInvitableRole;
  expires_at: Date | string;
  expired: boolean;
  accepted_at: Date | string | null;
  revoked_at: Date | string | null;
  inviter_id: string | null;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
}

/**
 * The invitation a link names, if it can still be used: 404 for an unknown or withdrawn one
 * (the same answer, so tokens cannot be probed), 409 once used, 410 once expired.
 */
async function findUsableInvitation(
  db: Queryable,
  token: string,
  lock: boolean,
): Promise<TokenRow> {
  const { rows } = await db.query<TokenRow>(
    `SELECT i.id, i.workspace_id, w.name AS workspace_name, i.email, i.role, i.expires_at,
            i.expires_at <= clock_timestamp() AS expired, i.accepted_at, i.revoked_at,
            u.id AS inviter_id, u.display_name, u.first_name, u.last_name
     FROM workspace_invitations i JOIN workspaces w ON w.id = i.workspace_id
       LEFT JOIN users u ON u.id = i.invited_by
     WHERE i.token_hash = $1${lock ? " FOR UPDATE OF i" : ""}`,
    [hashOpaqueToken(token)],
  );
  const row = rows[0];
  if (!row || row.revoked_at !== null) {
    throw new AppError(ERROR_CODES.notFound, 404, WORKSPACE_MESSAGES.invitationNotFound);
  }
  if (row.accepted_at !== null) {
    throw new AppError(
      WORKSPACE_ERROR_CODES.invitationUsed,
      409,
      WORKSPACE_MESSAGES.invitationUsed,
    );
  }
  if (row.expired) {
    throw new AppError(
      WORKSPACE_ERROR_CODES.invitationExpired,
      410,
      WORKSPACE_MESSAGES.invitationExpired,
    );
  }
  return row;
}

/** What the invited person sees before accepting (any signed-in holder of the link). */
export async function previewInvitation(db: Queryable, token: string): Promise<TInvitationPreview> {
  const row = await findUsableInvitation(db, token, false);
  return {
    workspace_name: row.workspace_name,
    role: row.role,
    invited_by: accountName(row),
    email: row.email,
    expires_at: isoTimestamp(row.expires_at),
  };
}

/** The signed-out preview: who invited which address to which workspace (decision 057). */
export async function previewInvitationPublicly(
  db: Queryable,
  token: string,
): Promise<TInvitationPublicPreview> {
  const row = await findUsableInvitation(db, token, false);
  return { workspace_name: row.workspace_name, invited_by: accountName(row), email: row.email };
}

/**
 * Joins the signed-in user to the workspace with the invitation's role, once: the row is
 * locked, so two accepts of one link cannot both succeed. Only the invited address may
 * accept (403 naming it). Someone already a member keeps their role; the link is used up.
 */
export async function acceptInvitation(
  db: Db,
  user: { id: string; email: string; emailVerified: boolean },
  token: string,
): Promise<TWorkspace> {
  return db.transaction(async (tx) => {
    const invitation = await findUsableInvitation(tx, token, true);
    if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
      throw new AppError(
        WORKSPACE_ERROR_CODES.invitationWrongAccount,
        403,
        WORKSPACE_MESSAGES.invitationWrongAccount(invitation.email),
      );
    }
    // Holding the link is not proof of owning the address: the address must be confirmed.
    if (!user.emailVerified) {
      throw new AppError(
        WORKSPACE_ERROR_CODES.invitationUnverified,
        403,
        WORKSPACE_MESSAGES.invitationUnverified(invitation.email),
      );
    }
    const workspaceId = invitation.workspace_id;
    await tx.query(
      `UPDATE workspace_invitations SET accepted_at = clock_timestamp(), accepted_by = $2
       WHERE id = $1`,
      [invitation.id, user.id],
    );
    const { rowCount } = await tx.query(
      `INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT (workspace_id, user_id) DO NOTHING`,
      [workspaceId, user.id, invitation.role],
    );
    await recordWorkspaceAudit(tx, {
      workspaceId,
      actorId: user.id,
      action: "invitation.accepted",
      target: invitation.email,
      details: { role: invitation.role, invitation_id: invitation.id },
    });
    if (rowCount > 0) {
      await recordWorkspaceAudit(tx, {
        workspaceId,
        actorId: user.id,
        action: "member.joined",
        target: user.id,
        details: { role: invitation.role },
      });
    }
    const workspace = await findWorkspace(tx, user.id, workspaceId);
    if (!workspace) throw workspaceNotFound();
    return workspace;
  });
}
