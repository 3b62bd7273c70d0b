import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { Badge } from "../../components/badge";
import { Card } from "../../components/card";
import { DataTable } from "../../components/data-table";
import { formatDate } from "../../lib/format/dates";
import { formatNumber } from "../../lib/format/numbers";
import { adminKeys, fetchAgreements, fetchPending } from "./admin-api";
import { AdminPage, QueryState } from "./admin-page";
import { Pager } from "./pager";
import { PublishAgreementForm } from "./publish-agreement-form";

/** Agreements: every version with its acceptances, who has not accepted, and publishing. */
export function AgreementsSection() {
  const { data, isPending, isError } = useQuery({
    queryKey: adminKeys.agreements,
    queryFn: ({ signal }) => fetchAgreements(signal),
  });
  return (
    <AdminPage
      title="Agreements"
      description="Published versions, who accepted them, and who has not yet."
    >
      <Card className="p-5">
        <h2 className="text-base font-semibold text-ink-950">Versions</h2>
        {isPending || isError ? (
          <QueryState isError={isError} label="agreement versions" />
        ) : (
          <DataTable
            testId="agreement-versions"
            caption="Agreement versions, newest first"
            columns={["Version", "Effective", "Published", "Accepted", "Declined", "Declining"]}
          >
            {data.versions.map((version) => (
              <tr key={version.id}>
                <th scope="row" className="py-2 pr-3 font-medium text-ink-900">
                  {version.version} {version.current ? <Badge tone="success">Current</Badge> : null}
                </th>
                <td className="py-2 pr-3">{version.effectiveDate}</td>
                <td className="py-2 pr-3 text-ink-600">{formatDate(version.published_at)}</td>
                <td className="py-2 pr-3 tabular-nums">
                  {formatNumber(version.acceptances)} of {formatNumber(data.users_total)}
                </td>
                <td className="py-2 pr-3 tabular-nums">{formatNumber(version.declines)}</td>
                <td className="py-2">{version.allowDecline ? "Allowed" : "Not allowed"}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <PendingUsers />
        <PublishAgreementForm />
      </div>
    </AdminPage>
  );
}

function PendingUsers() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError } = useQuery({
    queryKey: adminKeys.pending(page),
    queryFn: ({ signal }) => fetchPending(page, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <Card className="grid content-start gap-3 self-start p-5">
      <h2 className="text-base font-semibold text-ink-950">
        Not yet accepted{data ? ` (version ${data.version})` : ""}
      </h2>
      {isPending || isError ? (
        <QueryState isError={isError} label="the users who have not accepted" />
      ) : data.total === 0 ? (
        <p className="text-sm text-ink-600">Every user has accepted or declined it.</p>
      ) : (
        <>
          <ul className="divide-y divide-ink-100 text-sm" data-testid="pending-users">
            {data.users.map((user) => (
              <li key={user.id} className="py-2">
                <Link to={`/admin/users/${user.id}`} className="text-brand-700 hover:underline">
                  {user.email}
                </Link>
              </li>
            ))}
          </ul>
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
        </>
      )}
    </Card>
  );
}
