import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/button";
import { Card } from "../../components/card";
import { SectionLoadError, SectionLoading } from "../../components/section-header";
import { formatDateTime } from "../../lib/format/dates";
import { fetchOutbox, OUTBOX_QUERY_KEY } from "./admin-api";
import { AdminPage } from "./admin-page";
import { linkify } from "./linkify";

/** The dev outbox: emails kept instead of sent while no SMTP server is configured. */
export function OutboxList() {
  const { data, isPending, isError, refetch, isFetching } = useQuery({
    queryKey: OUTBOX_QUERY_KEY,
    queryFn: ({ signal }) => fetchOutbox(signal),
    staleTime: 0,
  });
  return (
    <Card className="p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-ink-950">Dev outbox</h2>
          <p className="mt-1 text-sm text-ink-600">
            Emails Cohort would have sent, newest first. Set <code>SMTP_URL</code> to send them.
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={() => refetch()} disabled={isFetching}>
          {isFetching ? "Loading..." : "Refresh"}
        </Button>
      </div>
      {isPending ? (
        <SectionLoading label="Loading the outbox…" />
      ) : isError ? (
        <SectionLoadError>Could not load the outbox.</SectionLoadError>
      ) : data.messages.length === 0 ? (
        <p className="mt-4 text-sm text-ink-600">No emails yet.</p>
      ) : (
        <ul className="mt-4 grid gap-3" data-testid="outbox">
          {data.messages.map((message) => (
            <li key={message.id} className="rounded-xl border border-ink-200">
              <details>
                <summary className="cursor-pointer list-none px-4 py-3 hover:bg-ink-50">
                  <span className="block text-sm font-semibold text-ink-950">
                    {message.subject}
                  </span>
                  <span className="mt-0.5 block text-xs text-ink-500">
                    To {message.to} · {formatDateTime(message.created_at, { seconds: true })}
                  </span>
                </summary>
                <pre className="overflow-x-auto border-t border-ink-200 px-4 py-3 font-sans text-sm whitespace-pre-wrap text-ink-700">
                  {linkify(message.text)}
                </pre>
              </details>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function OutboxSection() {
  return (
    <AdminPage title="Outbox">
      <OutboxList />
    </AdminPage>
  );
}
