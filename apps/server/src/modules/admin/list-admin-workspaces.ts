import type { TAdminWorkspacesQuery, TAdminWorkspacesResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { getCreditBalances } from "../credits/get-balance";
import { listMemberSpend } from "../workspaces/list-member-spend";
import { listTeamWorkspaces } from "../workspaces/list-team-workspaces";

/**
 * Team workspaces with their members, pool balance, caps and this month's spend (decision
 * 056). A page holds at most 50 teams; each team's members and usage are one statement each.
 */
export async function listAdminWorkspaces(
  db: Queryable,
  query: TAdminWorkspacesQuery,
  now = new Date(),
): Promise<TAdminWorkspacesResponse> {
  const month = now.toISOString().slice(0, 7);
  const { rows, total } = await listTeamWorkspaces(db, query);
  const balances = await getCreditBalances(
    db,
    rows.map((row) => row.id),
  );
  const workspaces = [];
  for (const row of rows) {
    const { spend: described } = await listMemberSpend(db, row.id, month);
    const spent = described.reduce((sum, member) => sum + member.spent_credits, 0);
    workspaces.push({
      ...row,
      pool_credits: balances.get(row.id) ?? 0,
      month,
      spent_credits: Math.round(spent * 100) / 100,
      members: described,
    });
  }
  return { workspaces, total, page: query.page, pageSize: query.pageSize };
}
