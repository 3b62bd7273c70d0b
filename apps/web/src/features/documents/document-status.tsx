import type { TDocumentStatus } from "@cohort/contracts";
import { cn } from "../../components/cn";

export const DOCUMENT_STATUS_LABELS: Record<TDocumentStatus, string> = {
  processing: "Processing",
  ready: "Ready",
  failed: "Failed",
};

const TONES: Record<TDocumentStatus, string> = {
  processing: "bg-sky-50 text-sky-800 ring-sky-200",
  ready: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
};

/** A document's status as a small pill, in the tones of the session badges. */
export function DocumentStatusBadge({
  status,
  className,
}: {
  status: TDocumentStatus;
  className?: string;
}) {
  return (
    <span
      data-testid="document-status"
      data-status={status}
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-semibold ring-1 ring-inset",
        TONES[status],
        className,
      )}
    >
      {status === "processing" ? (
        <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-sky-500" />
      ) : null}
      {DOCUMENT_STATUS_LABELS[status]}
    </span>
  );
}
