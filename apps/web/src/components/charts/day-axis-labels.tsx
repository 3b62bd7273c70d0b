import { formatDay } from "../../lib/format/dates";
import { cn } from "../cn";

/**
 * The date row under a per-day bar chart: about five labels whatever the range, the rest
 * left blank so the columns stay aligned with the bars above. Hidden from assistive
 * technology: each chart describes its range in words.
 */
export function DayAxisLabels({
  days,
  className,
}: {
  days: readonly { date: string }[];
  className?: string;
}) {
  const labelEvery = Math.max(1, Math.ceil(days.length / 5));
  return (
    <div aria-hidden="true" className={cn("flex gap-px px-px pt-1", className)}>
      {days.map((day, index) => (
        <span
          key={day.date}
          className="min-w-0 flex-1 overflow-visible text-[11px] whitespace-nowrap text-ink-500"
        >
          {index % labelEvery === 0 ? formatDay(day.date) : ""}
        </span>
      ))}
    </div>
  );
}
