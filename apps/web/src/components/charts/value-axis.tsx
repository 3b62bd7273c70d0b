import { formatNumber } from "../../lib/format/numbers";
import { cn } from "../cn";

/**
 * A bar chart's value axis, hidden from screen readers (the chart's label says the figures):
 * the top of the scale, its middle and zero, spread over the plot's height (`className`).
 */
export function ValueAxis({ max, className }: { max: number; className: string }) {
  return (
    <div
      aria-hidden="true"
      className={cn(
        "flex flex-col justify-between text-right text-[11px] text-ink-500 tabular-nums",
        className,
      )}
    >
      {[max, max / 2, 0].map((tick) => (
        <span key={tick} className="-my-1.5 leading-3">
          {formatNumber(tick)}
        </span>
      ))}
    </div>
  );
}
