import { DEFAULT_DISPLAY_NAME, type TWorkspaceRole } from "@cohort/contracts";
import { isoTimestamp, type Queryable } from "../../db/client";

export interface WorkspaceMember {
  user_id: string;
  email: string;
  display_name: string;
  role: TWorkspaceRole;
  joined_at: string;
}

interface MemberRow {
  user_id: string;
  email: string;
  display_name: string | null;
  first_name: string;
  last_name: string;
  role: TWorkspaceRole;
  joined_at: Date | string;
}

/** The order of the members list: owners first, then by rank, then by name. */
const ROLE_ORDER =
  "CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'member' THEN 2 ELSE 3 END";

/**
 * The members of a workspace with their names, owners first. Names are read by a join on
 * users rather than through the users module's `findUserById`: that one reads each user's
 * credit balance (one query per member, and a users → credits → workspaces import loop once
 * credits checks workspace access); a members list needs three columns in one statement.
 */
export async function listWorkspaceMembers(
  db: Queryable,
  workspaceId: string,
): Promise<WorkspaceMember[]> {
  const { rows } = await db.query<MemberRow>(
    `SELECT m.user_id, u.email, u.display_name, u.first_name, u.last_name, m.role,
            m.created_at AS joined_at
     FROM workspace_members m JOIN users u ON u.id = m.user_id
     WHERE m.workspace_id = $1
     ORDER BY ${ROLE_ORDER}, lower(coalesce(nullif(u.display_name, ''), u.first_name || ' ' || u.last_name)), u.email`,
    [workspaceId],
  );
  return rows.map((row) => ({
    user_id: row.user_id,
    email: row.email,
    display_name: memberName(row),
    role: row.role,
    joined_at: isoTimestamp(row.joined_at),
  }));
}

/** The name the users module shows for a profile (user-row.ts `toUserProfile`). */
export function memberName(row: {
  display_name: string | null;
  first_name: string;
  last_name: string;
}): string {
  return row.display_name || `${row.first_name} ${row.last_name}`.trim() || DEFAULT_DISPLAY_NAME;
}
