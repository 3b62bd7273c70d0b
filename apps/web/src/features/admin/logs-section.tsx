import { LOG_LEVELS, type TLogEntriesQuery, type TStoredLogEntry } from "@cohort/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useSearchParams } from "react-router";
import { Badge, type BadgeTone } from "../../components/badge";
import { Button } from "../../components/button";
import { Card } from "../../components/card";
import { HeaderCells } from "../../components/data-table";
import { Field } from "../../components/form";
import { formatDateTime } from "../../lib/format/dates";
import { adminKeys, fetchLogs, fetchTrail } from "./admin-api";
import { AdminSelect } from "./admin-list-search";
import { AdminPage, QueryState } from "./admin-page";
import { Pager } from "./pager";

const FILTERS = ["level", "source", "userId", "sessionId", "requestId", "from", "to"] as const;
type Filter = (typeof FILTERS)[number];

const LEVEL_TONES: Record<TStoredLogEntry["level"], BadgeTone> = {
  debug: "neutral",
  info: "brand",
  warn: "warning",
  error: "danger",
};

/** A datetime-local value (the reader's time) as an ISO instant, or nothing. */
function toIso(local: string): string | undefined {
  const date = new Date(local);
  return local && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

/** Logs: client and server entries filtered by level, user, session, request id and time. */
export function LogsSection() {
  // Filters and the open trail live in the address, so a trail can be linked to.
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((key) => [key, params.get(key) ?? ""])) as Record<
    Filter,
    string
  >;
  const [draft, setDraft] = useState(filters);
  const page = Math.max(1, Number(params.get("page")) || 1);
  const trail = params.get("trail");
  const query: Partial<TLogEntriesQuery> = {
    page,
    pageSize: 50,
    ...(filters.level ? { level: filters.level as TLogEntriesQuery["level"] } : {}),
    ...(filters.source ? { source: filters.source as TLogEntriesQuery["source"] } : {}),
    ...(filters.userId ? { userId: filters.userId } : {}),
    ...(filters.sessionId ? { sessionId: filters.sessionId } : {}),
    ...(filters.requestId ? { requestId: filters.requestId } : {}),
    ...(toIso(filters.from) ? { from: toIso(filters.from) } : {}),
    ...(toIso(filters.to) ? { to: toIso(filters.to) } : {}),
  };
  const { data, isPending, isError, isFetching } = useQuery({
    queryKey: adminKeys.logs(query),
    queryFn: ({ signal }) => fetchLogs(query, signal),
    placeholderData: keepPreviousData,
  });
  const setParam = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setParam({ ...draft, page: "" });
  };
  const field = (key: Filter) => ({
    value: draft[key],
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value }),
  });

  return (
    <AdminPage
      title="Logs"
      description="What browsers reported and what the server logged, newest first."
    >
      {trail ? <TrailCard requestId={trail} onClose={() => setParam({ trail: "" })} /> : null}
      <Card className="grid gap-4 p-5">
        <form onSubmit={onFilter} className="grid gap-3 sm:grid-cols-4" aria-label="Log filters">
          <AdminSelect label="Level" {...field("level")}>
            <option value="">Any level</option>
            {LOG_LEVELS.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </AdminSelect>
          <AdminSelect label="Source" {...field("source")}>
            <option value="">Client and server</option>
            <option value="client">Client</option>
            <option value="server">Server</option>
          </AdminSelect>
          <Field label="User id" {...field("userId")} />
          <Field label="Session id" {...field("sessionId")} />
          <Field label="Request id" {...field("requestId")} />
          <Field label="From" type="datetime-local" {...field("from")} />
          <Field label="To" type="datetime-local" {...field("to")} />
          <div className="flex items-end">
            <Button type="submit">Filter</Button>
          </div>
        </form>
        {isPending || isError ? (
          <QueryState isError={isError} label="the logs" />
        ) : data.entries.length === 0 ? (
          <p className="text-sm text-ink-600">No entries match.</p>
        ) : (
          <>
            <LogTable
              entries={data.entries}
              busy={isFetching}
              onTrail={(requestId) => setParam({ trail: requestId })}
            />
            <Pager
              page={data.page}
              pageSize={data.pageSize}
              total={data.total}
              onPage={(next) => setParam({ page: String(next) })}
            />
          </>
        )}
      </Card>
    </AdminPage>
  );
}

function LogTable({
  entries,
  busy,
  onTrail,
}: {
  entries: readonly TStoredLogEntry[];
  busy?: boolean;
  onTrail?: (requestId: string) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-ink-200">
      <table
        className="w-full text-left text-sm"
        aria-busy={busy || undefined}
        data-testid="log-table"
      >
        <caption className="sr-only">Log entries</caption>
        <thead className="bg-ink-50 text-xs text-ink-600">
          <tr>
            <HeaderCells
              columns={["When", "Level", "Source", "Message", "Request"]}
              className="px-3 py-2 font-medium"
            />
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-100 align-top">
          {entries.map((entry) => (
            <tr key={`${entry.source}-${entry.id}`}>
              <td className="px-3 py-2 whitespace-nowrap text-ink-600">
                {formatDateTime(entry.timestamp)}
              </td>
              <td className="px-3 py-2">
                <Badge tone={LEVEL_TONES[entry.level]}>{entry.level}</Badge>
              </td>
              <td className="px-3 py-2 text-ink-600">{entry.source}</td>
              <td className="px-3 py-2">
                <span className="text-ink-900">{entry.message}</span>
                {entry.url ? <span className="block text-xs text-ink-500">{entry.url}</span> : null}
                {entry.data ? (
                  <details className="text-xs">
                    <summary className="cursor-pointer text-brand-700">Data</summary>
                    <pre className="mt-1 max-w-xl overflow-x-auto whitespace-pre-wrap text-ink-700">
                      {JSON.stringify(entry.data, null, 2)}
                    </pre>
                  </details>
                ) : null}
              </td>
              <td className="px-3 py-2 font-mono text-xs">
                {entry.requestId && onTrail ? (
                  <button
                    type="button"
                    className="text-brand-700 hover:underline"
                    onClick={() => onTrail(entry.requestId as string)}
                  >
                    {entry.requestId}
                  </button>
                ) : (
                  (entry.requestId ?? "—")
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One request's whole trail: the client's entries and the server's lines, oldest first. */
function TrailCard({ requestId, onClose }: { requestId: string; onClose: () => void }) {
  const { data, isPending, isError } = useQuery({
    queryKey: adminKeys.trail(requestId),
    queryFn: ({ signal }) => fetchTrail(requestId, signal),
  });
  return (
    <Card className="grid gap-3 p-5" data-testid="request-trail">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-base font-semibold text-ink-950">
          Request <span className="font-mono">{requestId}</span>
        </h2>
        <Button variant="outline" size="sm" onClick={onClose}>
          Close
        </Button>
      </div>
      {isPending || isError ? (
        <QueryState isError={isError} label="the request's trail" />
      ) : data.entries.length === 0 ? (
        <p className="text-sm text-ink-600">Nothing was kept for this request.</p>
      ) : (
        <LogTable entries={data.entries} />
      )}
    </Card>
  );
}
