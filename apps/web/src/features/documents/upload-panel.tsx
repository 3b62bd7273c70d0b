import {
  DOCUMENT_KIND_LABELS,
  DOCUMENT_KINDS,
  type TDocument,
  type TDocumentUsage,
} from "@cohort/contracts";
import { useId, useRef } from "react";
import { Button } from "../../components/button";
import { Card } from "../../components/card";
import { cn } from "../../components/cn";
import { formatCount, formatPercent } from "../../lib/format/numbers";
import { DocumentStatusBadge } from "./document-status";
import { formatBytes } from "./documents-format";
import type { UploadItem } from "./use-uploads";

/** "PDF, Word, text, Markdown, CSV, JSON and source code", from the contract's kinds. */
export function acceptedKindsText(): string {
  // Mid-sentence, common nouns go lower case; names and acronyms keep theirs.
  const labels = DOCUMENT_KINDS.map((kind) =>
    kind === "text" || kind === "code"
      ? DOCUMENT_KIND_LABELS[kind].toLowerCase()
      : DOCUMENT_KIND_LABELS[kind],
  );
  return `${labels.slice(0, -1).join(", ")} and ${labels.at(-1) ?? ""}`;
}

/** What the server accepts, as the list call reports it: types, per-file limit, quota. */
export function LimitsText({ usage }: { usage: TDocumentUsage }) {
  return (
    <>
      {acceptedKindsText()} files, up to {formatBytes(usage.max_file_bytes)} each; your plan stores{" "}
      {formatBytes(usage.quota_bytes)} in all. The type is read from the content, not the name.
    </>
  );
}

/** Storage used of the plan's quota, as a meter. */
export function StorageMeter({ usage }: { usage: TDocumentUsage }) {
  const fraction = usage.quota_bytes > 0 ? Math.min(1, usage.used_bytes / usage.quota_bytes) : 1;
  return (
    <div className="grid min-w-48 gap-1.5" data-testid="documents-storage">
      <p className="text-xs text-ink-600">
        <span className="font-semibold text-ink-900">{formatBytes(usage.used_bytes)}</span> of{" "}
        {formatBytes(usage.quota_bytes)} used
        <span className="sr-only"> ({formatPercent(fraction)})</span>
      </p>
      {/* The sentence above says it all; the bar only shows it. */}
      <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-ink-100">
        <div
          className={cn(
            "h-full rounded-full",
            fraction >= 0.9 ? "bg-red-500" : fraction >= 0.75 ? "bg-amber-500" : "bg-brand-500",
          )}
          style={{ width: `${fraction * 100}%` }}
        />
      </div>
    </div>
  );
}

/** The dashed area that takes files: a button opens the picker, the whole page takes drops. */
export function DropZone({
  usage,
  dragging,
  onFiles,
}: {
  usage: TDocumentUsage | undefined;
  dragging: boolean;
  onFiles(files: File[]): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  return (
    <div
      className={cn(
        "flex flex-col items-start gap-3 rounded-2xl border-2 border-dashed px-5 py-5 transition-colors sm:flex-row sm:items-center sm:justify-between",
        dragging ? "border-brand-400 bg-brand-50" : "border-ink-200 bg-white",
      )}
      data-testid="documents-dropzone"
    >
      <div className="min-w-0">
        <p className="text-sm font-semibold text-ink-950">
          {dragging ? "Drop the files to upload them" : "Drag files here to upload them"}
        </p>
        <p className="mt-1 text-xs text-ink-600">
          {usage ? <LimitsText usage={usage} /> : `${acceptedKindsText()} files.`}
        </p>
      </div>
      <input
        ref={input}
        id={inputId}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label="Files to upload"
        data-testid="documents-file-input"
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          event.target.value = "";
        }}
      />
      <Button onClick={() => input.current?.click()} className="shrink-0">
        <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
          <path
            d="M8 11V3m0 0L4.5 6.5M8 3l3.5 3.5M3 13h10"
            stroke="currentColor"
            strokeWidth="1.75"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        Upload files
      </Button>
    </div>
  );
}

/** Sent in full, the file waits for the server's verdict (type, size, quota). */
function uploadLabel(item: UploadItem, percent: number): string {
  if (item.phase === "waiting") return "Waiting…";
  if (percent >= 1) return "Checking the file…";
  return `Uploading ${formatPercent(percent, 0)}`;
}

function UploadRow({ item, document }: { item: UploadItem; document: TDocument | undefined }) {
  const percent = item.total > 0 ? Math.min(1, item.loaded / item.total) : 0;
  const sending = item.phase === "waiting" || item.phase === "uploading";
  return (
    <li className="grid gap-1.5 py-3" data-testid="upload-row" data-phase={item.phase}>
      <div className="flex items-center justify-between gap-3">
        <p className="min-w-0 truncate text-sm font-medium text-ink-900">{item.fileName}</p>
        <span className="shrink-0 text-xs text-ink-500 tabular-nums">{formatBytes(item.size)}</span>
      </div>
      {sending ? (
        <div className="flex items-center gap-3">
          <div
            role="progressbar"
            aria-label={`Uploading ${item.fileName}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(percent * 100)}
            className="h-1.5 flex-1 overflow-hidden rounded-full bg-ink-100"
          >
            <div
              className="h-full rounded-full bg-brand-500 transition-[width]"
              style={{ width: `${percent * 100}%` }}
            />
          </div>
          <span className="w-32 shrink-0 text-right text-xs whitespace-nowrap text-ink-600 tabular-nums">
            {uploadLabel(item, percent)}
          </span>
        </div>
      ) : item.phase === "refused" ? (
        <p className="text-xs font-medium text-red-700" data-testid="upload-refusal">
          Not uploaded: {item.message}
        </p>
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-xs text-ink-600">
          <DocumentStatusBadge status={document?.status ?? "processing"} />
          {document?.status === "failed" ? (
            <span className="font-medium text-red-700">{document.failure_reason}</span>
          ) : document?.status === "ready" ? (
            <span>Uploaded and read: ready to search.</span>
          ) : (
            <span>Uploaded; Cohort is reading it.</span>
          )}
        </p>
      )}
    </li>
  );
}

/** One line for screen readers, told when a file's phase changes rather than every percent. */
function uploadSummary(items: readonly UploadItem[], documents: readonly TDocument[]): string {
  const counts = { sending: 0, reading: 0, ready: 0, failed: 0, refused: 0 };
  for (const item of items) {
    if (item.phase === "waiting" || item.phase === "uploading") counts.sending += 1;
    else if (item.phase === "refused") counts.refused += 1;
    else {
      const status = documents.find((document) => document.id === item.documentId)?.status;
      if (status === "ready") counts.ready += 1;
      else if (status === "failed") counts.failed += 1;
      else counts.reading += 1;
    }
  }
  return [
    counts.sending > 0 ? `${formatCount(counts.sending, "file")} uploading` : null,
    counts.reading > 0 ? `${formatCount(counts.reading, "file")} being read` : null,
    counts.ready > 0 ? `${formatCount(counts.ready, "file")} ready` : null,
    counts.failed > 0 ? `${formatCount(counts.failed, "file")} could not be read` : null,
    counts.refused > 0 ? `${formatCount(counts.refused, "file")} refused` : null,
  ]
    .filter(Boolean)
    .join(", ");
}

/** The files of this visit: progress while sending, then the document's status or the refusal. */
export function UploadList({
  items,
  documents,
  onClear,
}: {
  items: readonly UploadItem[];
  documents: readonly TDocument[];
  onClear(): void;
}) {
  const headingId = useId();
  if (items.length === 0) return null;
  const finished = items.some((item) => item.phase === "uploaded" || item.phase === "refused");
  return (
    <Card className="px-5 py-2" aria-labelledby={headingId} role="region">
      <div className="flex items-center justify-between gap-3 pt-2">
        <h2 id={headingId} className="text-sm font-semibold text-ink-950">
          Uploads
        </h2>
        {finished ? (
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear finished
          </Button>
        ) : null}
      </div>
      <p role="status" className="sr-only">
        {uploadSummary(items, documents)}
      </p>
      <ul className="divide-y divide-ink-100">
        {items.map((item) => (
          <UploadRow
            key={item.key}
            item={item}
            document={documents.find((document) => document.id === item.documentId)}
          />
        ))}
      </ul>
    </Card>
  );
}
