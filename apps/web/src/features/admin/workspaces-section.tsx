import type { TAdminWorkspace, TAdminWorkspacesQuery } from "@cohort/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Card } from "../../components/card";
import { DataTable } from "../../components/data-table";
import { formatDate, formatMonth } from "../../lib/format/dates";
import { formatCredits, formatNumber } from "../../lib/format/numbers";
import { adminKeys, fetchWorkspaces } from "./admin-api";
import { AdminListResults, AdminSearchForm, useAdminListSearch } from "./admin-list-search";
import { AdminPage } from "./admin-page";

const ROLE_LABELS: Record<TAdminWorkspace["members"][number]["role"], string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
  viewer: "Viewer",
};

/** Team workspaces (decision 056): members, the pool, caps and this month's spend. */
export function WorkspacesSection() {
  // The search lives in the address, as on Users: Back returns to the same list.
  const search = useAdminListSearch();
  const { q, page } = search;
  const query: TAdminWorkspacesQuery = { q: q || undefined, page, pageSize: 20 };
  const result = useQuery({
    queryKey: adminKeys.workspaces(query),
    queryFn: ({ signal }) => fetchWorkspaces(query, signal),
    placeholderData: keepPreviousData,
  });

  return (
    <AdminPage
      title="Workspaces"
      description="Team workspaces, newest first: who is in each, the pool, caps and this month's spend."
    >
      <Card className="grid gap-4 p-5">
        <AdminSearchForm
          label="Find workspaces"
          fieldLabel="Search workspaces"
          placeholder="Workspace name"
          search={search}
        />
        <AdminListResults
          result={result}
          label="workspaces"
          empty="No team workspace matches."
          isEmpty={(page) => page.workspaces.length === 0}
          search={search}
        >
          {(data) => (
            <ul className="grid gap-4">
              {data.workspaces.map((workspace) => (
                <WorkspaceCard key={workspace.id} workspace={workspace} />
              ))}
            </ul>
          )}
        </AdminListResults>
      </Card>
    </AdminPage>
  );
}

function WorkspaceCard({ workspace }: { workspace: TAdminWorkspace }) {
  const month = formatMonth(workspace.month);
  return (
    <li
      className="rounded-xl border border-ink-200 p-4"
      data-testid="admin-workspace"
      aria-label={workspace.name}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold text-ink-950">{workspace.name}</h2>
        <span className="text-xs text-ink-500">Created {formatDate(workspace.created_at)}</span>
      </div>
      <dl
        className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm"
        data-testid="admin-workspace-figures"
      >
        <div className="flex gap-1.5">
          <dt className="text-ink-600">Members</dt>
          <dd className="tabular-nums">{formatNumber(workspace.member_count)}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-ink-600">Pool</dt>
          <dd className="tabular-nums">{formatCredits(workspace.pool_credits)}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-ink-600">Spent in {month}</dt>
          <dd className="tabular-nums">{formatCredits(workspace.spent_credits)}</dd>
        </div>
      </dl>
      <DataTable
        caption={`Members of ${workspace.name}`}
        columns={[
          "Member",
          "Role",
          { label: "Monthly cap", end: true },
          { label: "Spent", end: true },
          { label: "Calls", end: true },
        ]}
      >
        {workspace.members.map((member) => (
          <tr key={member.user_id}>
            <th scope="row" className="py-2 pr-3 font-normal">
              <Link
                to={`/admin/users/${member.user_id}`}
                className="font-medium text-brand-700 hover:underline"
              >
                {member.display_name}
              </Link>
              <span className="block text-xs text-ink-500">{member.email}</span>
            </th>
            <td className="py-2 pr-3">{ROLE_LABELS[member.role]}</td>
            <td className="py-2 pr-3 text-right tabular-nums">
              {member.monthly_cap_credits === null
                ? "No cap"
                : formatCredits(member.monthly_cap_credits)}
            </td>
            <td className="py-2 pr-3 text-right tabular-nums">
              {formatCredits(member.spent_credits)}
            </td>
            <td className="py-2 text-right tabular-nums">{formatNumber(member.calls)}</td>
          </tr>
        ))}
      </DataTable>
    </li>
  );
}
