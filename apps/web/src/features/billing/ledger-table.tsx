import type { TCreditHistoryEntry, TCreditHistoryRun } from "@cohort/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Link } from "react-router";
import { cn } from "../../components/cn";
import { ChevronRightIcon } from "../../components/icons";
import { LoadFailed } from "../../components/load-failed";
import { PageNav } from "../../components/page-nav";
import { Spinner } from "../../components/spinner";
import { formatDateTime } from "../../lib/format/dates";
import { formatCount, formatNumber } from "../../lib/format/numbers";
import { billingKeys, fetchCreditHistory } from "./billing-api";
import { formatCreditDelta, ledgerReasonLabel } from "./billing-format";
import { useModelNames } from "./use-model-names";

export const LEDGER_PAGE_SIZE = 10;

const cell = "px-3 py-2.5 sm:px-4";
const amountCell = `${cell} text-right whitespace-nowrap tabular-nums`;

function DeltaCell({ delta, className }: { delta: number; className?: string }) {
  return (
    <td
      className={cn(
        amountCell,
        "font-semibold",
        delta > 0 ? "text-emerald-700" : "text-ink-900",
        className,
      )}
    >
      {formatCreditDelta(delta)}
    </td>
  );
}

function DateCell({ iso }: { iso: string }) {
  return (
    <td className="hidden px-4 py-2.5 whitespace-nowrap text-ink-600 sm:table-cell">
      <time dateTime={iso}>{formatDateTime(iso)}</time>
    </td>
  );
}

/** Small screens have no Date column; the date goes under the description. */
function SmallDate({ iso }: { iso: string }) {
  return <span className="block text-xs text-ink-500 sm:hidden">{formatDateTime(iso)}</span>;
}

function EntryRow({ entry }: { entry: TCreditHistoryEntry }) {
  const label = ledgerReasonLabel(entry.reason);
  return (
    <tr data-testid="ledger-entry">
      <DateCell iso={entry.created_at} />
      <td className={cell}>
        <span className="font-medium text-ink-900">{label}</span>
        {entry.description && entry.description.toLowerCase() !== label.toLowerCase() ? (
          <span className="block text-xs text-ink-500">{entry.description}</span>
        ) : null}
        <SmallDate iso={entry.created_at} />
      </td>
      <DeltaCell delta={entry.delta} />
      <td className={cn(amountCell, "text-ink-700")}>{formatNumber(entry.balance_after)}</td>
    </tr>
  );
}

/**
 * One run: what its calls cost together and its session; its calls are rows of the same
 * table under it (same columns), shown with the disclosure button.
 */
function RunRows({ run }: { run: TCreditHistoryRun }) {
  const [open, setOpen] = useState(false);
  const callsId = useId();
  const modelName = useModelNames();
  const calls = formatCount(run.calls.length, "model call");
  return (
    <tbody id={callsId} className="border-t border-ink-100 first:border-t-0">
      <tr data-testid="ledger-run">
        <DateCell iso={run.created_at} />
        <td className={cell}>
          <span className="font-medium text-ink-900">
            Run in{" "}
            {run.session_id ? (
              <Link
                to={`/chat/${run.session_id}`}
                className="text-brand-700 underline-offset-2 hover:underline"
              >
                {run.session_title}
              </Link>
            ) : (
              <span className="text-ink-600">a deleted session</span>
            )}
          </span>
          <button
            type="button"
            className="mt-0.5 flex items-center gap-1 rounded text-xs font-medium text-ink-600 hover:text-ink-900 focus-visible:outline-2 focus-visible:outline-brand-600"
            aria-expanded={open}
            aria-controls={callsId}
            onClick={() => setOpen((value) => !value)}
          >
            <ChevronRightIcon className={cn("size-3 transition-transform", open && "rotate-90")} />
            {open ? `Hide the ${calls}` : `Show the ${calls}`}
          </button>
          <SmallDate iso={run.created_at} />
        </td>
        <DeltaCell delta={run.delta} />
        <td className={cn(amountCell, "text-ink-700")}>{formatNumber(run.balance_after)}</td>
      </tr>
      {run.calls.map((call) => (
        <tr
          key={call.id}
          hidden={!open}
          className="bg-ink-50/70 text-xs"
          data-testid="ledger-run-call"
        >
          <td className="hidden py-2 pr-4 pl-8 whitespace-nowrap text-ink-500 sm:table-cell">
            <time dateTime={call.created_at}>{formatDateTime(call.created_at)}</time>
          </td>
          <td className="py-2 pr-3 pl-8 text-ink-800 sm:pl-4">
            <span className="sr-only">Model call: </span>
            {modelName(call.model)}
          </td>
          <td className={cn(amountCell, "py-2 text-ink-800")}>{formatCreditDelta(call.delta)}</td>
          <td className={cn(amountCell, "py-2 text-ink-600")}>
            {formatNumber(call.balance_after)}
          </td>
        </tr>
      ))}
    </tbody>
  );
}

/**
 * The credit history, newest first, a page at a time: a run's model calls are one row that
 * links to its session and opens to show the calls; grants and purchases are a row each.
 */
export function LedgerTable() {
  const [page, setPage] = useState(1);
  const captionId = useId();
  const { data, isPending, isError, isFetching, refetch } = useQuery({
    queryKey: billingKeys.creditHistory(page, LEDGER_PAGE_SIZE),
    queryFn: ({ signal }) => fetchCreditHistory(page, LEDGER_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });

  if (isPending) return <Spinner label="Loading credit history…" />;
  if (isError) {
    return <LoadFailed message="The credit history could not be loaded." retry={refetch} />;
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
            Credit history, newest first, page {formatNumber(data.page)} of {formatNumber(pages)}
          </caption>
          <thead className="bg-ink-50 text-xs text-ink-600">
            <tr>
              <th scope="col" className="hidden px-4 py-2.5 font-medium sm:table-cell">
                Date
              </th>
              <th scope="col" className={cn(cell, "font-medium")}>
                What
              </th>
              <th scope="col" className={cn(cell, "text-right font-medium")}>
                Change
              </th>
              <th scope="col" className={cn(cell, "text-right font-medium")}>
                Balance after
              </th>
            </tr>
          </thead>
          {data.rows.map((row) =>
            row.kind === "run" ? (
              <RunRows key={row.id} run={row} />
            ) : (
              <tbody key={row.id} className="border-t border-ink-100 first:border-t-0">
                <EntryRow entry={row} />
              </tbody>
            ),
          )}
        </table>
      </div>
      <PageNav
        label="Credit history pages"
        page={page}
        pages={pages}
        onPage={(next) => setPage(Math.min(pages, Math.max(1, next)))}
      >
        <p id={captionId} className="text-xs text-ink-600">
          Page {formatNumber(data.page)} of {formatNumber(pages)} ·{" "}
          {formatCount(data.total, { one: "entry", other: "entries" })}
        </p>
      </PageNav>
    </div>
  );
}
