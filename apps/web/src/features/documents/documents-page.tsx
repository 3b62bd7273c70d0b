import type { TDocumentsResponse } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type DragEvent, useCallback, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { Card } from "../../components/card";
import { LoadFailed } from "../../components/load-failed";
import { PageSection } from "../../components/page-section";
import { PageSpinner } from "../../components/spinner";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { useCurrentWorkspace } from "../workspaces/current-workspace";
import { DocumentList } from "./document-list";
import { DocumentSearch } from "./document-search";
import { DocumentViewer } from "./document-viewer";
import { refreshDocuments, useDocuments } from "./documents-api";
import { DropZone, LimitsText, StorageMeter, UploadList } from "./upload-panel";
import { useUploads } from "./use-uploads";

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes("Files");
}

/** The whole screen takes dropped files; a counter keeps child elements from flickering it. */
function useFileDrop(onFiles: (files: File[]) => void) {
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const handlers = {
    onDragEnter: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "copy";
    },
    onDragLeave: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      onFiles(Array.from(event.dataTransfer.files));
    },
  };
  return { dragging, handlers };
}

function EmptyState({ data }: { data: TDocumentsResponse }) {
  return (
    <Card
      tone="muted"
      className="grid gap-2 p-6 text-sm text-ink-700"
      data-testid="documents-empty"
    >
      <p className="font-semibold text-ink-950">No documents yet</p>
      <p>
        Upload the material your team should work from: reports, notes, tables, code. Agents search
        it during runs and cite the passages they use.
      </p>
      <p className="text-ink-600">
        <LimitsText usage={data.usage} />
      </p>
    </Card>
  );
}

function DocumentsHome({ uploads }: { uploads: ReturnType<typeof useUploads> }) {
  useDocumentMeta({ title: "Documents" });
  const { data, isPending, isError, refetch } = useDocuments();
  const { dragging, handlers } = useFileDrop(uploads.add);
  const documents = data?.documents ?? [];
  // "team's" only where there is a team: the personal workspace is the user's own.
  const { workspace } = useCurrentWorkspace();

  return (
    <div
      {...handlers}
      className="mx-auto grid max-w-5xl gap-8 px-4 py-8 sm:px-6 lg:px-10 lg:py-10"
      data-testid="documents-page"
    >
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">Documents</h1>
          <p className="mt-1 text-sm text-ink-600" data-testid="documents-subtitle">
            {workspace?.kind === "team" ? "Your team's" : "Your"} source material: searched during
            runs, cited by passage.
          </p>
        </div>
        {data ? <StorageMeter usage={data.usage} /> : null}
      </div>

      <div className="grid gap-4">
        <DropZone usage={data?.usage} dragging={dragging} onFiles={uploads.add} />
        <UploadList items={uploads.items} documents={documents} onClear={uploads.clearFinished} />
      </div>

      {isPending ? (
        <PageSpinner label="Loading your documents…" />
      ) : isError ? (
        <LoadFailed message="Your documents could not be loaded." retry={refetch} card />
      ) : documents.length === 0 ? (
        <EmptyState data={data} />
      ) : (
        <>
          <PageSection className="gap-3" title="Search" testId="documents-search">
            <DocumentSearch mode={data.search_mode} embeddingModel={data.embedding_model} />
          </PageSection>
          <PageSection className="gap-3" title="Your documents" testId="documents-list">
            <Card className="px-5 py-1">
              <DocumentList documents={documents} />
            </Card>
          </PageSection>
        </>
      )}
    </div>
  );
}

/** /documents: upload, search and manage documents; `?view=<id>` opens one in the viewer. */
export function DocumentsPage() {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const refresh = useCallback(() => void refreshDocuments(queryClient), [queryClient]);
  // Owned here, not by the list, so opening a document in the viewer does not stop uploads.
  const uploads = useUploads(refresh);
  const view = params.get("view");
  if (view) {
    return (
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-10 lg:py-10">
        <DocumentViewer key={view} documentId={view} passageId={params.get("passage")} />
      </div>
    );
  }
  return <DocumentsHome uploads={uploads} />;
}
