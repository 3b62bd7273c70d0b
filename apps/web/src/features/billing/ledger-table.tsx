import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { Spinner } from "../../components/spinner";
import { billingKeys, fetchLedger } from "./billing-api";
import {
  formatCreditDelta,
  formatDateTime,
  formatNumber,
  ledgerReasonLabel,
} from "./billing-format";

export const LEDGER_PAGE_SIZE = 10;

/** The credit ledger, newest first, a page at a time. */
export function LedgerTable() {
  const [page, setPage] = useState(1);
  const captionId = useId();
  const { data, isPending, isError, isFetching, refetch } = useQuery({
    queryKey: billingKeys.ledger(page, LEDGER_PAGE_SIZE),
    queryFn: ({ signal }) => fetchLedger(page, LEDGER_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });

  if (isPending) return <Spinner label="Loading credit history…" />;
  if (isError) {
    return (
      <div className="flex flex-wrap items-center gap-3 text-sm text-ink-700">
        <p>The credit history could not be loaded.</p>
        <Button variant="outline" size="sm" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (data.total === 0) {
    return <p className="text-sm text-ink-600">No credit movements yet.</p>;
  }
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <div className="grid gap-3">
      <div className="overflow-x-auto rounded-xl border border-ink-200">
        <table
          className="w-full text-left text-sm"
          aria-describedby={captionId}
          aria-busy={isFetching || undefined}
          data-testid="ledger-table"
        >
          <caption className="sr-only">
            Credit history, newest first, page {data.page} of {pages}
          </caption>
          <thead className="bg-ink-50 text-xs text-ink-600">
            <tr>
              <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                Date
              </th>
              <th scope="col" className="px-4 py-2.5 font-medium">
                Reason
              </th>
              <th scope="col" className="px-3 py-2.5 text-right font-medium sm:px-4">
                Change
              </th>
              <th scope="col" className="px-3 py-2.5 text-right font-medium sm:px-4">
                Balance after
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-ink-100">
            {data.entries.map((entry) => (
              <tr key={entry.id}>
                <td className="hidden px-4 py-2.5 whitespace-nowrap text-ink-600 sm:table-cell">
                  <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
                </td>
                <td className="px-4 py-2.5">
                  <span className="font-medium text-ink-900">
                    {ledgerReasonLabel(entry.reason)}
                  </span>
                  {entry.description &&
                  entry.description.toLowerCase() !==
                    ledgerReasonLabel(entry.reason).toLowerCase() ? (
                    <span className="block text-xs text-ink-500">{entry.description}</span>
                  ) : null}
                  {/* Small screens have no Date column; the date goes under the reason. */}
                  <span className="block text-xs text-ink-500 sm:hidden">
                    {formatDateTime(entry.created_at)}
                  </span>
                </td>
                <td
                  className={cn(
                    "px-3 py-2.5 text-right font-semibold whitespace-nowrap tabular-nums sm:px-4",
                    entry.delta > 0 ? "text-emerald-700" : "text-ink-900",
                  )}
                >
                  {formatCreditDelta(entry.delta)}
                </td>
                <td className="px-3 py-2.5 text-right whitespace-nowrap text-ink-700 tabular-nums sm:px-4">
                  {formatNumber(entry.balance_after)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label="Credit history pages" className="flex items-center justify-between gap-3">
        <p id={captionId} className="text-xs text-ink-600">
          Page {data.page} of {pages} · {formatNumber(data.total)}{" "}
          {data.total === 1 ? "entry" : "entries"}
        </p>
        <div className="flex gap-2">
          <Button
            variant="outline"
            size="sm"
            disabled={page <= 1}
            onClick={() => setPage((p) => Math.max(1, p - 1))}
          >
            Previous
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={page >= pages}
            onClick={() => setPage((p) => Math.min(pages, p + 1))}
          >
            Next
          </Button>
        </div>
      </nav>
    </div>
  );
}
