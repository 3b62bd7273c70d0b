import { useQuery } from "@tanstack/react-query";
import { Card } from "../../components/card";
import { barPercent } from "../../lib/format/chart-scale";
import { formatDate } from "../../lib/format/dates";
import { formatCount, formatNumber, formatPercent } from "../../lib/format/numbers";
import { adminKeys, fetchAnalytics } from "./admin-api";
import { AdminPage, QueryState } from "./admin-page";
import { WebVitalsTable } from "./web-vitals-table";

const FUNNEL_LABELS = {
  landing: "Landing page",
  sign_up: "Signed up",
  first_run: "First run",
  purchase: "Purchase",
} as const;

/** Analytics: top pages, referrers, UTM sources, the sign-up funnel, web vitals per route. */
export function AnalyticsSection() {
  const { data, isPending, isError } = useQuery({
    queryKey: adminKeys.analytics,
    queryFn: ({ signal }) => fetchAnalytics(signal),
  });
  return (
    <AdminPage
      title="Analytics"
      description="What visitors do, from the web app's own analytics (no third parties)."
    >
      {isPending || isError ? (
        <QueryState isError={isError} label="analytics" />
      ) : (
        <>
          <p className="text-sm text-ink-600">
            {formatDate(data.from)} to {formatDate(data.to)}:{" "}
            {formatCount(data.pageViews, "page view")} in {formatCount(data.sessions, "session")}.
          </p>
          <div className="grid gap-6 lg:grid-cols-3">
            <CountList title="Top pages" rows={data.topPages} />
            <CountList title="Referrers" rows={data.referrers} />
            <CountList title="UTM sources" rows={data.utmSources} />
          </div>
          <Card className="p-5">
            <h2 className="text-base font-semibold text-ink-950">Funnel</h2>
            <ol className="mt-3 grid gap-3" data-testid="funnel">
              {data.funnel.map((step, index) => {
                const top = data.funnel[0]?.count ?? 0;
                const previous = data.funnel[index - 1]?.count;
                return (
                  <li key={step.step} className="grid gap-1">
                    <div className="flex justify-between text-sm">
                      <span className="font-medium text-ink-900">{FUNNEL_LABELS[step.step]}</span>
                      <span className="text-ink-600 tabular-nums">
                        {formatNumber(step.count)}
                        {previous
                          ? ` · ${formatPercent(step.count / previous)} of the step before`
                          : ""}
                      </span>
                    </div>
                    <div aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-ink-100">
                      <div
                        className="h-full rounded-full bg-brand-500"
                        style={{ width: `${barPercent(step.count, top)}%` }}
                      />
                    </div>
                  </li>
                );
              })}
            </ol>
          </Card>
          <Card className="p-5">
            <h2 className="text-base font-semibold text-ink-950">Web vitals, p75 per route</h2>
            <WebVitalsTable vitals={data.webVitals} />
          </Card>
        </>
      )}
    </AdminPage>
  );
}

function CountList({
  title,
  rows,
}: {
  title: string;
  rows: readonly { key: string; count: number }[];
}) {
  const max = Math.max(0, ...rows.map((row) => row.count));
  return (
    <Card className="p-5">
      <h2 className="text-base font-semibold text-ink-950">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-ink-600">Nothing yet.</p>
      ) : (
        <ul className="mt-3 grid gap-2">
          {rows.map((row) => (
            <li key={row.key} className="grid gap-1">
              <div className="flex justify-between gap-3 text-sm">
                <span className="min-w-0 truncate font-mono text-xs text-ink-900">{row.key}</span>
                <span className="text-xs text-ink-600 tabular-nums">{formatNumber(row.count)}</span>
              </div>
              <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-ink-100">
                <div
                  className="h-full rounded-full bg-brand-500"
                  style={{ width: `${barPercent(row.count, max)}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
