import { useId } from "react";
import { DayAxisLabels } from "../../components/charts/day-axis-labels";
import { DayNumbers } from "../../components/charts/day-numbers";
import { ValueAxis } from "../../components/charts/value-axis";
import { barPercent, niceCeiling } from "../../lib/format/chart-scale";
import { formatDay } from "../../lib/format/dates";

export interface DayValue {
  date: string;
  value: number;
}

export interface DayBarChartProps {
  title: string;
  days: readonly DayValue[];
  /** How one value reads, e.g. "3 sign-ups" or "$12.00". */
  describe: (value: number) => string;
  testId?: string;
  /** A second series drawn beside the first (e.g. credits spent beside credits granted). */
  second?: { label: string; days: readonly DayValue[] };
  firstLabel?: string;
}

/**
 * A bar per day, drawn with divs like the billing usage chart (no chart library). The bars
 * are one labelled image with a text summary; the numbers are a table behind a disclosure.
 */
export function DayBarChart({
  title,
  days,
  describe,
  testId,
  second,
  firstLabel,
}: DayBarChartProps) {
  const captionId = useId();
  const values = [...days, ...(second?.days ?? [])].map((day) => day.value);
  const max = niceCeiling(Math.max(0, ...values));
  const total = days.reduce((sum, day) => sum + day.value, 0);
  const first = days[0];
  const last = days.at(-1);
  const summary =
    first && last
      ? `${title} from ${formatDay(first.date, true)} to ${formatDay(last.date, true)}: ${describe(total)} in total${
          second
            ? `; ${second.label}: ${describe(second.days.reduce((sum, day) => sum + day.value, 0))}`
            : ""
        }.`
      : "No days to show.";
  return (
    <figure aria-labelledby={captionId} className="grid content-start gap-2" data-testid={testId}>
      <figcaption id={captionId} className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold text-ink-900">{title}</span>
        <span className="text-xs text-ink-600 tabular-nums">{describe(total)}</span>
      </figcaption>
      {second ? (
        <p aria-hidden="true" className="flex gap-3 text-xs text-ink-600">
          <span className="flex items-center gap-1">
            <span className="size-2 rounded-sm bg-brand-500" /> {firstLabel}
          </span>
          <span className="flex items-center gap-1">
            <span className="size-2 rounded-sm bg-amber-500" /> {second.label}
          </span>
        </p>
      ) : null}
      <div role="img" aria-label={summary} className="grid grid-cols-[auto_1fr] gap-x-2">
        <ValueAxis max={max} className="h-28" />
        <div aria-hidden="true" className="relative h-28 border-b border-l border-ink-200">
          <div className="absolute inset-x-0 top-1/2 border-t border-dashed border-ink-200" />
          <div className="absolute inset-0 flex items-end gap-px px-px">
            {days.map((day, index) => {
              const other = second?.days[index];
              return (
                <div
                  key={day.date}
                  title={`${formatDay(day.date)}: ${describe(day.value)}${other ? ` · ${second?.label}: ${describe(other.value)}` : ""}`}
                  className="flex h-full min-w-0 flex-1 items-end gap-px"
                >
                  <div
                    className="w-full rounded-t-sm bg-brand-500"
                    style={{ height: `${barPercent(day.value, max)}%` }}
                  />
                  {other ? (
                    <div
                      className="w-full rounded-t-sm bg-amber-500"
                      style={{ height: `${barPercent(other.value, max)}%` }}
                    />
                  ) : null}
                </div>
              );
            })}
          </div>
        </div>
        <div />
        <DayAxisLabels days={days} />
      </div>
      <DayNumbers
        caption={`${title} per day`}
        columns={[
          "Day",
          { label: firstLabel ?? title, end: true },
          ...(second ? [{ label: second.label, end: true as const }] : []),
        ]}
        days={days}
        values={(day, index) => [
          describe(day.value),
          ...(second ? [describe(second.days[index]?.value ?? 0)] : []),
        ]}
      />
    </figure>
  );
}
