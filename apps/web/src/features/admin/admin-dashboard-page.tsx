import type { TAdminModelStats, TAdminOverview, TModelHealth } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Badge } from "../../components/badge";
import { Card } from "../../components/card";
import { DataTable } from "../../components/data-table";
import { formatCount, formatNumber, formatUsd } from "../../lib/format/numbers";
import { useModelNames } from "../billing/use-model-names";
import { adminKeys, fetchOverview } from "./admin-api";
import { AdminPage, AdminRowHeader, formatMilliseconds, QueryState } from "./admin-page";
import { DayBarChart } from "./day-bar-chart";
import { WebVitalsTable } from "./web-vitals-table";

const RANGES = [7, 30, 90] as const;

const plural = (word: string) => (value: number) => formatCount(value, word, 2);

function series(overview: TAdminOverview, pick: (day: OverviewDay) => number) {
  return overview.days.map((day) => ({ date: day.date, value: pick(day) }));
}

type OverviewDay = TAdminOverview["days"][number];

/** The one-figure charts, in the order they stand. */
const DAY_CHARTS: readonly {
  title: string;
  testId: string;
  pick(day: OverviewDay): number;
  describe(value: number): string;
}[] = [
  {
    title: "Sign-ups",
    testId: "chart-signups",
    pick: (day) => day.signups,
    describe: plural("sign-up"),
  },
  {
    title: "Active users",
    testId: "chart-active",
    pick: (day) => day.active_users,
    describe: plural("user"),
  },
  { title: "Runs", testId: "chart-runs", pick: (day) => day.runs, describe: plural("run") },
  {
    title: "CoChat messages",
    testId: "chart-cochat",
    pick: (day) => day.cochat_messages,
    describe: plural("message"),
  },
  {
    title: "Revenue",
    testId: "chart-revenue",
    pick: (day) => day.revenue_cents / 100,
    describe: formatUsd,
  },
];

/** The admin area's overview: the business per day, and how the model providers are doing. */
export function AdminDashboardPage() {
  const [days, setDays] = useState<number>(30);
  const { data, isPending, isError } = useQuery({
    queryKey: adminKeys.overview(days),
    queryFn: ({ signal }) => fetchOverview(days, signal),
  });
  return (
    <AdminPage
      title="Admin dashboard"
      description="Sign-ups, activity, revenue and credits per day (UTC), and provider health."
      actions={
        <fieldset className="flex gap-1 rounded-lg border border-ink-200 bg-white p-1">
          <legend className="sr-only">Period</legend>
          {RANGES.map((range) => (
            <button
              key={range}
              type="button"
              aria-pressed={days === range}
              onClick={() => setDays(range)}
              className={
                days === range
                  ? "rounded-md bg-ink-900 px-3 py-1 text-sm font-semibold text-white"
                  : "rounded-md px-3 py-1 text-sm text-ink-700 hover:bg-ink-100"
              }
            >
              {range} days
            </button>
          ))}
        </fieldset>
      }
    >
      {isPending || isError ? (
        <QueryState isError={isError} label="the overview" />
      ) : (
        <>
          <div className="grid gap-3 sm:grid-cols-4">
            <Stat label="Users" value={formatNumber(data.totals.users)} />
            <Stat label="Disabled accounts" value={formatNumber(data.totals.disabled_users)} />
            <Stat
              label="Analytics dropped (over the daily cap)"
              value={formatNumber(data.analytics_dropped.items)}
            />
            <Stat
              label={`Revenue, ${days} days`}
              value={formatUsd(data.days.reduce((sum, day) => sum + day.revenue_cents, 0) / 100)}
            />
            <Stat
              label={`Runs, ${days} days`}
              value={formatNumber(data.days.reduce((sum, day) => sum + day.runs, 0))}
            />
          </div>
          <div className="grid gap-6 lg:grid-cols-2">
            {DAY_CHARTS.map((chart) => (
              <Card key={chart.testId} className="p-5">
                <DayBarChart
                  title={chart.title}
                  testId={chart.testId}
                  days={series(data, chart.pick)}
                  describe={chart.describe}
                />
              </Card>
            ))}
            <Card className="p-5">
              <DayBarChart
                title="Credits granted and spent"
                testId="chart-credits"
                firstLabel="Granted"
                days={series(data, (day) => day.credits_granted)}
                second={{ label: "Spent", days: series(data, (day) => day.credits_spent) }}
                describe={plural("credit")}
              />
            </Card>
          </div>
          <Card className="p-5">
            <h2 className="text-base font-semibold text-ink-950">Model providers</h2>
            <ProviderHealthTable providers={data.providers} />
          </Card>
          <Card className="p-5">
            <h2 className="text-base font-semibold text-ink-950">Calls per model</h2>
            <p className="mt-1 text-sm text-ink-600">
              What this server has seen since it started: calls, failures and latency.
            </p>
            <ModelStatsTable models={data.models} />
          </Card>
          <Card className="p-5">
            <h2 className="text-base font-semibold text-ink-950">Web vitals, p75 per route</h2>
            <WebVitalsTable />
          </Card>
        </>
      )}
    </AdminPage>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card className="p-4">
      <p className="text-xs font-medium text-ink-600">{label}</p>
      <p className="mt-1 text-2xl font-bold text-ink-950 tabular-nums">{value}</p>
    </Card>
  );
}

/** Per provider: configured or simulated, last outcome, median latency over recent calls. */
export function ProviderHealthTable({ providers }: { providers: readonly TModelHealth[] }) {
  return (
    <DataTable
      testId="provider-health"
      caption="Provider health"
      columns={[
        "Provider",
        "Mode",
        "Status",
        { label: "Latency p50", end: true },
        { label: "First token p50", end: true },
        { label: "Calls", end: true },
        { label: "On users' keys", end: true },
        "Last error",
      ]}
    >
      {providers.map((provider) => (
        <tr key={provider.provider}>
          <th scope="row" className="py-2 pr-3 font-medium text-ink-900">
            {provider.name}
          </th>
          <td className="py-2 pr-3">
            <Badge tone={provider.mode === "real" ? "brand" : "neutral"}>
              {provider.mode === "real" ? "Real" : "Simulated"}
            </Badge>
          </td>
          <td className="py-2 pr-3">
            {provider.reachable === null ? (
              <span className="text-ink-500">
                {provider.user_key_calls > 0 ? "None on the server's key" : "No calls yet"}
              </span>
            ) : provider.reachable ? (
              <Badge tone="success">OK</Badge>
            ) : (
              <Badge tone="danger">Failing</Badge>
            )}
          </td>
          <td className="py-2 pr-3 text-right tabular-nums">
            {formatMilliseconds(provider.latency_ms_p50)}
          </td>
          <td className="py-2 pr-3 text-right tabular-nums">
            {formatMilliseconds(provider.ttft_ms_p50)}
          </td>
          <td className="py-2 pr-3 text-right tabular-nums">{provider.samples}</td>
          <td className="py-2 pr-3 text-right tabular-nums">
            {provider.user_key_calls}
            {provider.user_key_failures > 0 ? ` (${provider.user_key_failures} failed)` : ""}
          </td>
          <td className="py-2 text-xs text-ink-600">
            {provider.last_error
              ? `${provider.last_error.code}: ${provider.last_error.message}`
              : "—"}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function ModelStatsTable({ models }: { models: readonly TAdminModelStats[] }) {
  const modelName = useModelNames();
  if (models.length === 0) {
    return <p className="mt-3 text-sm text-ink-600">No model calls since the server started.</p>;
  }
  return (
    <DataTable
      testId="model-stats"
      caption="Calls per model"
      columns={["Model", "Calls", "Errors", "Latency p50", "Latency p95", "Last error"]}
      bodyClassName="divide-y divide-ink-100 tabular-nums"
    >
      {models.map((model) => (
        <tr key={model.model_id}>
          <AdminRowHeader>{modelName(model.model_id)}</AdminRowHeader>
          <td className="py-2 pr-3">{formatNumber(model.calls)}</td>
          <td className="py-2 pr-3">
            {model.errors > 0 ? <Badge tone="danger">{formatNumber(model.errors)}</Badge> : "0"}
          </td>
          <td className="py-2 pr-3">{formatMilliseconds(model.latency_ms_p50)}</td>
          <td className="py-2 pr-3">{formatMilliseconds(model.latency_ms_p95)}</td>
          <td className="py-2 text-xs text-ink-600">
            {model.last_error ? `${model.last_error.code}: ${model.last_error.message}` : "—"}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
