import {
  PROVIDER_NAMES,
  type TUsageDay,
  type TUsageModel,
  type TUserUsage,
} from "@cohort/contracts";
import { type ReactNode, useId } from "react";
import { DayAxisLabels } from "../../components/charts/day-axis-labels";
import { DayNumbers } from "../../components/charts/day-numbers";
import { ValueAxis } from "../../components/charts/value-axis";
import type { DataColumn } from "../../components/data-table";
import { barPercent, niceCeiling } from "../../lib/format/chart-scale";
import { formatDay } from "../../lib/format/dates";
import { formatCount, formatCredits, formatNumber } from "../../lib/format/numbers";
import { formatCost, formatTokens } from "./billing-format";
import { useModelNames } from "./use-model-names";

/**
 * Hand-made bar charts (no chart library: a few divs draw them, and the data is a table for
 * anyone who cannot see the bars). The day chart is one labelled image with a text summary
 * and the full numbers behind a disclosure; the model chart is a plain list, readable as is.
 */

const DAY_COLUMNS: readonly DataColumn[] = [
  "Day",
  { label: "Requests", end: true },
  { label: "Tokens", end: true },
  { label: "Credits", end: true },
];

const creditsText = formatCredits;

/** A provider id as people know it ("Anthropic"); an unknown one as it is. */
function providerName(provider: string): string {
  return PROVIDER_NAMES[provider as keyof typeof PROVIDER_NAMES] ?? provider;
}

function daySummary(days: readonly TUsageDay[]): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return "No days to show.";
  const total = days.reduce((sum, day) => sum + day.credits, 0);
  const range = `from ${formatDay(first.date, true)} to ${formatDay(last.date, true)}`;
  if (total <= 0) return `Bar chart of credits used per day ${range}: no credits used.`;
  const peak = days.reduce((best, day) => (day.credits > best.credits ? day : best), first);
  return `Bar chart of credits used per day ${range}: ${creditsText(total)} in total, the most on ${formatDay(peak.date, true)} (${creditsText(peak.credits)}).`;
}

export function DailyUsageChart({ days }: { days: readonly TUsageDay[] }) {
  const max = niceCeiling(Math.max(0, ...days.map((day) => day.credits)));
  const empty = days.every((day) => day.credits <= 0);
  return (
    <ChartFigure caption="Credits used per day" testId="usage-by-day">
      <div role="img" aria-label={daySummary(days)} className="grid grid-cols-[auto_1fr] gap-x-2">
        <ValueAxis max={max} className="h-40" />
        <div aria-hidden="true" className="relative h-40 border-b border-l border-ink-200">
          <div className="absolute inset-x-0 top-0 border-t border-dashed border-ink-200" />
          <div className="absolute inset-x-0 top-1/2 border-t border-dashed border-ink-200" />
          {empty ? (
            <p className="absolute inset-0 flex items-center justify-center text-sm text-ink-500">
              <span className="bg-white px-2">No credits used in this period.</span>
            </p>
          ) : null}
          <div className="absolute inset-0 flex items-end gap-px px-px sm:gap-0.5">
            {days.map((day) => (
              <div
                key={day.date}
                title={`${formatDay(day.date)}: ${creditsText(day.credits)}, ${formatCount(day.requests, "request")}`}
                className="flex h-full min-w-0 flex-1 items-end"
              >
                <div
                  className="w-full rounded-t-sm bg-brand-500 hover:bg-brand-700"
                  style={{ height: `${barPercent(day.credits, max)}%` }}
                />
              </div>
            ))}
          </div>
        </div>
        <div />
        <DayAxisLabels days={days} className="sm:gap-0.5" />
      </div>
      <DayNumbers
        caption="Usage per day"
        columns={DAY_COLUMNS}
        days={days}
        values={(day) => [
          formatNumber(day.requests),
          formatTokens(day.input_tokens + day.output_tokens),
          formatNumber(day.credits),
        ]}
        look="boxed"
      />
    </ChartFigure>
  );
}

export function ModelUsageChart({ models }: { models: readonly TUsageModel[] }) {
  const max = Math.max(0, ...models.map((model) => model.credits));
  const modelName = useModelNames();
  return (
    <ChartFigure caption="Credits used per model" testId="usage-by-model">
      {models.length === 0 ? (
        <p className="text-sm text-ink-600">No model calls in this period yet.</p>
      ) : (
        <ul className="grid gap-3">
          {models.map((model) => (
            <li key={`${model.provider}:${model.model}`} className="grid gap-1">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
                <span className="min-w-0 truncate font-medium text-ink-900">
                  {modelName(model.model)}{" "}
                  <span className="text-xs font-normal text-ink-500">
                    {providerName(model.provider)}
                  </span>
                </span>
                <span className="text-xs text-ink-600 tabular-nums">
                  {creditsText(model.credits)} · {formatCount(model.requests, "request")} ·{" "}
                  {formatCost(model.cost)}
                </span>
              </div>
              <div aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-ink-100">
                <div
                  className="h-full rounded-full bg-brand-500"
                  style={{ width: `${barPercent(model.credits, max)}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </ChartFigure>
  );
}

export function UsageCharts({ usage }: { usage: TUserUsage }) {
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <DailyUsageChart days={usage.days} />
      <ModelUsageChart models={usage.models} />
    </div>
  );
}

/** A chart with its caption above it, the caption naming the figure for screen readers. */
function ChartFigure({
  caption,
  testId,
  children,
}: {
  caption: string;
  testId: string;
  children: ReactNode;
}) {
  const captionId = useId();
  return (
    <figure aria-labelledby={captionId} className="grid content-start gap-3" data-testid={testId}>
      <figcaption id={captionId} className="text-sm font-semibold text-ink-900">
        {caption}
      </figcaption>
      {children}
    </figure>
  );
}
