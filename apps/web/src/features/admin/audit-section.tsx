import { ADMIN_ACTIONS, type TAdminAuditQuery } from "@cohort/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { Card } from "../../components/card";
import { HeaderCells } from "../../components/data-table";
import { formatDateTime } from "../../lib/format/dates";
import { adminKeys, fetchAudit } from "./admin-api";
import { AdminSelect } from "./admin-list-search";
import { AdminPage, QueryState } from "./admin-page";
import { auditSentence } from "./audit-sentence";
import { Pager } from "./pager";

const ACTION_LABELS: Record<(typeof ADMIN_ACTIONS)[number], string> = {
  "credits.adjust": "Credits adjusted",
  "user.tier": "Tier changed",
  "user.disable": "Account disabled",
  "user.enable": "Account enabled",
  "user.revoke_sign_ins": "Sign-ins revoked",
  "agreement.publish": "Agreement published",
  "model.override": "Model changed",
  "account.deleted": "Account deleted",
  "user.email_verified": "Email marked verified",
  "user.verification_sent": "Verification email sent",
  "user.password_reset_sent": "Password reset sent",
};

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Audit entries, newest first unless asked otherwise, a page at a time; what each did is a
 * sentence, never the stored JSON. On a user's own page the target is that user, so
 * `showTarget` is off there.
 */
export function AuditTable({
  query,
  showTarget = true,
}: {
  query: Partial<TAdminAuditQuery>;
  showTarget?: boolean;
}) {
  const [page, setPage] = useState(1);
  const full = { ...query, page };
  const { data, isPending, isError } = useQuery({
    queryKey: adminKeys.audit(full),
    queryFn: ({ signal }) => fetchAudit(full, signal),
    placeholderData: keepPreviousData,
  });
  if (isPending || isError) return <QueryState isError={isError} label="the audit log" />;
  if (data.entries.length === 0) {
    return <p className="mt-3 text-sm text-ink-600">No admin actions yet.</p>;
  }
  return (
    <div className="mt-3 grid gap-3">
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="audit-table">
          <caption className="sr-only">Admin actions</caption>
          <thead className="text-xs text-ink-600">
            <tr>
              <HeaderCells
                columns={[
                  "When",
                  "Who",
                  "What",
                  ...(showTarget ? ["Target"] : []),
                  "Details",
                  "Reason",
                ]}
                className="py-2 pr-3 font-medium"
              />
            </tr>
          </thead>
          <tbody className="divide-y divide-ink-100 align-top">
            {data.entries.map((entry) => (
              <tr key={entry.id}>
                <td className="py-2 pr-3 whitespace-nowrap text-ink-600">
                  {formatDateTime(entry.created_at)}
                </td>
                <td className="py-2 pr-3">
                  {/* An account deleted by its holder names no admin (decision 044). */}
                  {entry.admin_email || "The account holder"}
                </td>
                <td className="py-2 pr-3 font-medium text-ink-900">
                  {ACTION_LABELS[entry.action]}
                </td>
                {showTarget ? (
                  <td className="py-2 pr-3 text-xs break-all">
                    {entry.target_type === "user" ? (
                      <Link
                        to={`/admin/users/${entry.target_id}`}
                        className="text-brand-700 hover:underline"
                      >
                        User <span className="font-mono">{entry.target_id}</span>
                      </Link>
                    ) : (
                      <>
                        {capitalised(entry.target_type)}{" "}
                        <span className="font-mono">{entry.target_id}</span>
                      </>
                    )}
                  </td>
                ) : null}
                <td className="py-2 pr-3 text-ink-800" data-testid="audit-details">
                  {auditSentence(entry)}
                </td>
                <td className="py-2 text-ink-700">{entry.reason ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
    </div>
  );
}

export function AuditSection() {
  const [action, setAction] = useState<TAdminAuditQuery["action"]>();
  const [sort, setSort] = useState<TAdminAuditQuery["sort"]>("newest");
  return (
    <AdminPage
      title="Audit log"
      description="Every admin action: who, what, before and after, when. Entries are never changed or removed."
    >
      <Card className="p-5">
        <div className="flex flex-wrap gap-3">
          <AdminSelect
            label="Action"
            value={action ?? ""}
            onChange={(e) => setAction((e.target.value || undefined) as TAdminAuditQuery["action"])}
          >
            <option value="">All actions</option>
            {ADMIN_ACTIONS.map((value) => (
              <option key={value} value={value}>
                {ACTION_LABELS[value]}
              </option>
            ))}
          </AdminSelect>
          <AdminSelect
            label="Order"
            value={sort}
            onChange={(e) => setSort(e.target.value as TAdminAuditQuery["sort"])}
          >
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </AdminSelect>
        </div>
        <AuditTable key={`${action}-${sort}`} query={{ action, sort, pageSize: 25 }} />
      </Card>
    </AdminPage>
  );
}
