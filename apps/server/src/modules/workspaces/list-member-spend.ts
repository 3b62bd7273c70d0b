import type { Queryable } from "../../db/client";
import { listMemberUsage, type MemberUsage } from "../credits/list-member-usage";
import { listWorkspaceMembers, type WorkspaceMember } from "./list-workspace-members";

/** A member as the pool's usage figures show them: cap, spend and calls in one month. */
export interface MemberSpend {
  user_id: string;
  email: string;
  display_name: string;
  role: WorkspaceMember["role"];
  monthly_cap_credits: number | null;
  spent_credits: number;
  calls: number;
}

/**
 * A workspace's current members with their use of the pool in `month` (`YYYY-MM`, UTC), for
 * the team's usage page and the admin area alike. `usage` is by member id and also holds
 * those who spent that month and have left since.
 */
export async function listMemberSpend(
  db: Queryable,
  workspaceId: string,
  month: string,
): Promise<{
  members: WorkspaceMember[];
  usage: Map<string, MemberUsage>;
  spend: MemberSpend[];
}> {
  const [members, usage] = await Promise.all([
    listWorkspaceMembers(db, workspaceId),
    listMemberUsage(db, workspaceId, month),
  ]);
  const spend = members.map((member) => {
    const used = usage.get(member.user_id);
    return {
      user_id: member.user_id,
      email: member.email,
      display_name: member.display_name,
      role: member.role,
      monthly_cap_credits: used?.monthlyCap ?? null,
      spent_credits: used?.spent ?? 0,
      calls: used?.calls ?? 0,
    };
  });
  return { members, usage, spend };
}
