import { ADMIN_USER_SORTS, type TAdminUsersQuery } from "@cohort/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Badge } from "../../components/badge";
import { Card } from "../../components/card";
import { type DataColumn, HeaderCells } from "../../components/data-table";
import { formatDate } from "../../lib/format/dates";
import { formatNumber } from "../../lib/format/numbers";
import { adminKeys, fetchUsers } from "./admin-api";
import {
  AdminListResults,
  AdminSearchForm,
  AdminSelect,
  useAdminListSearch,
} from "./admin-list-search";
import { AdminPage } from "./admin-page";

const SORT_LABELS: Record<TAdminUsersQuery["sort"], string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  email: "By email",
};

/** Users: search by email or name, sort, page; each row opens the user's page. */
const USER_COLUMNS: readonly DataColumn[] = [
  "User",
  "Tier",
  { label: "Credits", end: true },
  "Joined",
  "State",
];

export function UsersSection() {
  const search = useAdminListSearch();
  const { params, q, page, update } = search;
  const sortParam = params.get("sort");
  const sort = (ADMIN_USER_SORTS as readonly string[]).includes(sortParam ?? "")
    ? (sortParam as TAdminUsersQuery["sort"])
    : "newest";
  const query: TAdminUsersQuery = { q: q || undefined, sort, page, pageSize: 25 };
  const result = useQuery({
    queryKey: adminKeys.users(query),
    queryFn: ({ signal }) => fetchUsers(query, signal),
    placeholderData: keepPreviousData,
  });

  return (
    <AdminPage
      title="Users"
      description="Search by email or name; open a user to act on the account."
    >
      <Card className="grid gap-4 p-5">
        <AdminSearchForm
          label="Find users"
          fieldLabel="Search users"
          placeholder="Email or name"
          search={search}
        >
          <AdminSelect
            label="Sort"
            value={sort}
            onChange={(e) => update({ sort: e.target.value, page: "" })}
          >
            {ADMIN_USER_SORTS.map((value) => (
              <option key={value} value={value}>
                {SORT_LABELS[value]}
              </option>
            ))}
          </AdminSelect>
        </AdminSearchForm>
        <AdminListResults
          result={result}
          label="users"
          empty="No user matches."
          isEmpty={(page) => page.users.length === 0}
          search={search}
        >
          {(data) => (
            <div className="overflow-x-auto rounded-xl border border-ink-200">
              <table
                className="w-full text-left text-sm"
                aria-busy={result.isFetching || undefined}
                data-testid="users-table"
              >
                <caption className="sr-only">Users, {SORT_LABELS[sort].toLowerCase()}</caption>
                <thead className="bg-ink-50 text-xs text-ink-600">
                  <tr>
                    <HeaderCells columns={USER_COLUMNS} className="px-4 py-2.5 font-medium" />
                  </tr>
                </thead>
                <tbody className="divide-y divide-ink-100">
                  {data.users.map((user) => (
                    <tr key={user.id} className="hover:bg-ink-50">
                      <th scope="row" className="px-4 py-2.5 font-normal">
                        <Link
                          to={`/admin/users/${user.id}`}
                          className="font-medium text-brand-700 hover:underline"
                        >
                          {user.email}
                        </Link>
                        <span className="block text-xs text-ink-500">{user.displayName}</span>
                      </th>
                      <td className="px-4 py-2.5">{user.subscription_tier}</td>
                      <td className="px-4 py-2.5 text-right tabular-nums">
                        {formatNumber(user.credits_remaining)}
                      </td>
                      <td className="px-4 py-2.5 text-ink-600">{formatDate(user.created_at)}</td>
                      <td className="px-4 py-2.5">
                        {user.disabled_at ? (
                          <Badge tone="danger">Disabled</Badge>
                        ) : user.role === "admin" ? (
                          <Badge tone="brand">Admin</Badge>
                        ) : (
                          <Badge tone="success">Active</Badge>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </AdminListResults>
      </Card>
    </AdminPage>
  );
}
