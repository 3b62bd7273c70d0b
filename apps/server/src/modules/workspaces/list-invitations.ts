import type { TInvitableRole, TWorkspaceInvitation } from "@cohort/contracts";
import { isoTimestamp, type Queryable } from "../../db/client";
import { memberName } from "./list-workspace-members";

interface InvitationRow {
  id: string;
  email: string;
  role: TInvitableRole;
  expires_at: Date | string;
  created_at: Date | string;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
  inviter_id: string | null;
}

/** Pending = neither accepted, revoked nor expired. `$1` is the workspace. */
const SELECT_PENDING = `SELECT i.id, i.email, i.role, i.expires_at, i.created_at,
    u.id AS inviter_id, u.display_name, u.first_name, u.last_name
  FROM workspace_invitations i LEFT JOIN users u ON u.id = i.invited_by
  WHERE i.workspace_id = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL
    AND i.expires_at > clock_timestamp()`;

/** A person's name as members see it (inviter, actor); null once their account is gone. */
export function accountName(row: {
  inviter_id: string | null;
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
}): string | null {
  if (!row.inviter_id) return null;
  return memberName({
    display_name: row.display_name,
    first_name: row.first_name ?? "",
    last_name: row.last_name ?? "",
  });
}

function toInvitation(row: InvitationRow): TWorkspaceInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invited_by: accountName(row),
    expires_at: isoTimestamp(row.expires_at),
    created_at: isoTimestamp(row.created_at),
  };
}

/** The workspace's pending invitations, newest first. */
export async function listInvitations(
  db: Queryable,
  workspaceId: string,
): Promise<TWorkspaceInvitation[]> {
  const { rows } = await db.query<InvitationRow>(
    `${SELECT_PENDING} ORDER BY i.created_at DESC, i.id`,
    [workspaceId],
  );
  return rows.map(toInvitation);
}

/** One pending invitation of the workspace; null when unknown, used, revoked or expired. */
export async function findInvitationById(
  db: Queryable,
  workspaceId: string,
  invitationId: string,
): Promise<TWorkspaceInvitation | null> {
  const { rows } = await db.query<InvitationRow>(`${SELECT_PENDING} AND i.id = $2`, [
    workspaceId,
    invitationId,
  ]);
  return rows[0] ? toInvitation(rows[0]) : null;
}
