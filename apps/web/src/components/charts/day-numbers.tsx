import { formatDay } from "../../lib/format/dates";
import { cn } from "../cn";
import { type DataColumn, HeaderCells } from "../data-table";

/** The two looks: small print under an admin chart, or a framed, scrolling table (billing). */
const LOOKS = {
  compact: {
    summary: "text-xs",
    frame: "mt-2",
    head: "text-ink-600",
    headCell: "py-1 font-medium",
    body: "tabular-nums",
    cell: "py-0.5",
  },
  boxed: {
    summary: "",
    frame: "mt-2 max-h-64 overflow-auto rounded-lg border border-ink-200",
    head: "sticky top-0 bg-ink-50 text-ink-600",
    headCell: "px-3 py-2 font-medium",
    body: "divide-y divide-ink-100 tabular-nums",
    cell: "px-3 py-1.5",
  },
} as const;

/**
 * A per-day chart's figures behind a "Show the numbers" disclosure, for anyone who cannot see
 * the bars: a row a day, the day first, then `values` of that day (right-aligned, one per
 * column after "Day").
 */
export function DayNumbers<Day extends { date: string }>({
  caption,
  columns,
  days,
  values,
  look = "compact",
}: {
  /** The table's name for screen readers: "Usage per day". */
  caption: string;
  columns: readonly DataColumn[];
  days: readonly Day[];
  values(day: Day, index: number): readonly string[];
  look?: keyof typeof LOOKS;
}) {
  const classes = LOOKS[look];
  return (
    <details className="text-sm">
      <summary
        className={cn("cursor-pointer font-medium text-brand-700 hover:underline", classes.summary)}
      >
        Show the numbers
      </summary>
      <div className={classes.frame}>
        <table className="w-full text-left text-xs">
          <caption className="sr-only">{caption}</caption>
          <thead className={classes.head}>
            <tr>
              <HeaderCells columns={columns} className={classes.headCell} />
            </tr>
          </thead>
          <tbody className={classes.body}>
            {days.map((day, index) => (
              <tr key={day.date}>
                <th scope="row" className={cn(classes.cell, "font-normal text-ink-700")}>
                  {formatDay(day.date, true)}
                </th>
                {values(day, index).map((value, column) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are positional
                  <td key={column} className={cn(classes.cell, "text-right")}>
                    {value}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
