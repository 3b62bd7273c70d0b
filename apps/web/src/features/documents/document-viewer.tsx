import type { TDocument, TDocumentChunk, TDocumentKind } from "@cohort/contracts";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { buttonClasses } from "../../components/button";
import { Card } from "../../components/card";
import { cn } from "../../components/cn";
import { FormMessage } from "../../components/form";
import { PageSpinner, Spinner } from "../../components/spinner";
import { isApiError } from "../../lib/api/api-error";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { DocumentStatusBadge } from "./document-status";
import {
  documentDownloadUrl,
  documentKeys,
  getDocument,
  getDocumentChunks,
  PROCESSING_POLL_MS,
} from "./documents-api";
import { documentFacts, passageLocation } from "./documents-format";
import { PdfPages } from "./pdf-pages";

function BackLink() {
  return (
    <Link
      to="/documents"
      className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
    >
      <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
        <path d="M10 4L6 8l4 4" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
      </svg>
      All documents
    </Link>
  );
}

/**
 * A PDF's text arrives with the page's line breaks; read in a narrow window they break
 * sentences mid-line. Those are joined; blank lines stay paragraphs. Other kinds keep their
 * lines, which mean something there (code, CSV rows, Markdown lists).
 */
function readableText(text: string, kind: TDocumentKind): string {
  if (kind !== "pdf") return text;
  return text
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, " "))
    .join("\n\n");
}

function ChunkBlock({
  chunk,
  kind,
  focused,
  showLocation,
}: {
  chunk: TDocumentChunk;
  kind: TDocumentKind;
  focused: boolean;
  showLocation: boolean;
}) {
  const ref = useRef<HTMLElement>(null);
  // The cited passage is brought into view once its text is on screen, on a deep link too:
  // centred when it fits the window, else from its start.
  useEffect(() => {
    const element = ref.current;
    if (!focused || !element) return;
    const fits = element.getBoundingClientRect().height < window.innerHeight * 0.7;
    element.scrollIntoView({ block: fits ? "center" : "start" });
    element.focus({ preventScroll: true });
  }, [focused]);
  const location = passageLocation(chunk);
  return (
    <section
      ref={ref}
      id={`passage-${chunk.id}`}
      tabIndex={focused ? -1 : undefined}
      aria-current={focused ? "location" : undefined}
      aria-label={
        focused ? `Cited passage${location ? `, ${location}` : ""}` : location || undefined
      }
      data-testid="document-chunk"
      data-chunk-id={chunk.id}
      className={cn(
        "scroll-mt-20 rounded-xl px-4 py-2 outline-none",
        focused ? "my-1 bg-amber-50 py-3 ring-2 ring-amber-300" : "",
      )}
    >
      {location && (showLocation || focused) ? (
        <p className="mb-1 text-[11px] font-semibold tracking-wide text-ink-500 uppercase">
          {location}
          {focused ? <span className="ml-2 text-amber-800 normal-case">Cited passage</span> : null}
        </p>
      ) : focused ? (
        <p className="mb-1 text-[11px] font-semibold text-amber-800">Cited passage</p>
      ) : null}
      <p className="text-sm leading-7 break-words whitespace-pre-wrap text-ink-900">
        {readableText(chunk.text, kind)}
      </p>
    </section>
  );
}

function ViewerBody({ document, passageId }: { document: TDocument; passageId: string | null }) {
  const chunks = useQuery({
    queryKey: documentKeys.chunks(document.id),
    queryFn: ({ signal }) => getDocumentChunks(document.id, signal),
    enabled: document.status === "ready",
  });
  if (document.status === "processing") {
    return (
      <Card className="flex items-center gap-3 p-5 text-sm text-ink-700">
        <Spinner size="sm" label="Reading the document" />
        Cohort is still reading this document; its text appears here when it is ready.
      </Card>
    );
  }
  if (document.status === "failed") {
    return (
      <div data-testid="document-failure">
        <FormMessage>{document.failure_reason ?? "This document could not be read."}</FormMessage>
      </div>
    );
  }
  if (chunks.isPending) return <Spinner label="Loading the text…" />;
  if (chunks.isError) {
    return (
      <FormMessage>
        {isApiError(chunks.error) ? chunks.error.message : "The text could not be loaded."}
      </FormMessage>
    );
  }
  const list = chunks.data.chunks;
  const missing = passageId !== null && !list.some((chunk) => chunk.id === passageId);
  const focused = list.find((chunk) => chunk.id === passageId);
  const text = (
    <div className="order-1 grid min-w-0 content-start gap-3 lg:order-2">
      {missing ? (
        <FormMessage tone="info">
          That passage is no longer part of this document; here is its whole text.
        </FormMessage>
      ) : null}
      {list.length === 0 ? (
        <p className="text-sm text-ink-600">This document has no text Cohort could extract.</p>
      ) : (
        <Card className="grid gap-1 p-2 sm:p-4" data-testid="document-text">
          {list.map((chunk, index) => (
            <ChunkBlock
              key={chunk.id}
              chunk={chunk}
              kind={document.kind}
              focused={chunk.id === passageId}
              showLocation={
                index === 0 || passageLocation(chunk) !== passageLocation(list[index - 1] ?? chunk)
              }
            />
          ))}
        </Card>
      )}
    </div>
  );
  if (document.kind !== "pdf") return text;
  // A PDF: its pages beside the extracted text, the cited passage marked on both.
  return (
    <div className="grid items-start gap-4 lg:grid-cols-2">
      {/* On a phone the text comes first: pages drawn above it would push the passage away. */}
      <div className="order-2 lg:sticky lg:top-4 lg:order-1">
        <PdfPages
          url={documentDownloadUrl(document.id)}
          cited={
            focused && focused.page !== null ? { page: focused.page, text: focused.text } : null
          }
        />
      </div>
      {text}
    </div>
  );
}

/** /documents?view=<id>&passage=<chunkId>: a document's extracted text, the passage in focus. */
export function DocumentViewer({
  documentId,
  passageId,
}: {
  documentId: string;
  passageId: string | null;
}) {
  const detail = useQuery({
    queryKey: documentKeys.detail(documentId),
    queryFn: ({ signal }) => getDocument(documentId, signal),
    refetchInterval: (query) =>
      query.state.data?.document.status === "processing" ? PROCESSING_POLL_MS : false,
  });
  useDocumentMeta({ title: detail.data?.document.name ?? "Document" });

  if (detail.isPending) return <PageSpinner label="Loading the document…" />;
  if (detail.isError) {
    // A malformed id (400) is as gone as another user's or a deleted one (404).
    const gone = isApiError(detail.error) && detail.error.isClientError;
    return (
      <div className="grid gap-4">
        <BackLink />
        <FormMessage>
          {gone
            ? "This document does not exist, or it was deleted."
            : "The document could not be loaded. Please try again."}
        </FormMessage>
      </div>
    );
  }
  const doc = detail.data.document;
  const facts = documentFacts(doc);

  return (
    <div className="grid gap-5" data-testid="document-viewer">
      <BackLink />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-xl font-bold tracking-tight break-words text-ink-950 sm:text-2xl">
            {doc.name}
          </h1>
          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-600">
            <DocumentStatusBadge status={doc.status} />
            <span>{facts.join(" · ")}</span>
          </p>
        </div>
        <a
          href={documentDownloadUrl(doc.id)}
          download={doc.name}
          className={buttonClasses({ variant: "outline", size: "sm", className: "self-start" })}
        >
          Download
        </a>
      </div>
      <ViewerBody document={doc} passageId={passageId} />
    </div>
  );
}
