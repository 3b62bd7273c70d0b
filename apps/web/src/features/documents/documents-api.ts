import type {
  TDeleteDocumentResponse,
  TDocumentChunksResponse,
  TDocumentResponse,
  TDocumentSearchResponse,
  TDocumentsResponse,
  TRenameDocumentRequest,
} from "@cohort/contracts";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { api } from "../../lib/api/api";
import { buildApiUrl } from "../../lib/api/client";
import { workspaceScope } from "../workspaces/workspace-store";

/**
 * The calls of the Documents screen (decision 036; payloads from contracts/documents.ts), with
 * their query keys. The upload, which needs progress events, is in upload-document.ts.
 */
export const DOCUMENTS_QUERY_KEY = ["documents"] as const;
export const documentKeys = {
  list: [...DOCUMENTS_QUERY_KEY, "list"] as const,
  detail: (id: string) => [...DOCUMENTS_QUERY_KEY, "detail", id] as const,
  chunks: (id: string) => [...DOCUMENTS_QUERY_KEY, "chunks", id] as const,
  search: (q: string, documentIds: readonly string[]) =>
    [...DOCUMENTS_QUERY_KEY, "search", q, documentIds.join(",")] as const,
};

/** How often a list or viewer with a document still being read asks again. */
export const PROCESSING_POLL_MS = 1_500;

export function listDocuments(signal?: AbortSignal): Promise<TDocumentsResponse> {
  return api.get<TDocumentsResponse>("/documents", { query: workspaceScope(), signal });
}

export function getDocument(id: string, signal?: AbortSignal): Promise<TDocumentResponse> {
  return api.get<TDocumentResponse>(`/documents/${encodeURIComponent(id)}`, { signal });
}

export function getDocumentChunks(
  id: string,
  signal?: AbortSignal,
): Promise<TDocumentChunksResponse> {
  return api.get<TDocumentChunksResponse>(`/documents/${encodeURIComponent(id)}/chunks`, {
    signal,
  });
}

/** Passages matching `q`, across all of the user's documents or only `documentIds`. */
export function searchDocuments(
  q: string,
  options: { documentIds?: readonly string[]; limit?: number; signal?: AbortSignal } = {},
): Promise<TDocumentSearchResponse> {
  const ids = options.documentIds ?? [];
  return api.get<TDocumentSearchResponse>("/documents/search", {
    query: {
      q,
      document_ids: ids.length > 0 ? ids.join(",") : undefined,
      limit: options.limit,
      ...workspaceScope(),
    },
    signal: options.signal,
  });
}

export function renameDocument(id: string, name: string): Promise<TDocumentResponse> {
  const body: TRenameDocumentRequest = { name };
  return api.patch<TDocumentResponse>(`/documents/${encodeURIComponent(id)}`, body);
}

export function deleteDocument(id: string): Promise<TDeleteDocumentResponse> {
  return api.delete<TDeleteDocumentResponse>(`/documents/${encodeURIComponent(id)}`);
}

/** The file as uploaded; the server always sends it as an attachment. */
export function documentDownloadUrl(id: string): string {
  return buildApiUrl(`/documents/${encodeURIComponent(id)}/download`);
}

/** Where citations and search results open a document: the viewer, at the passage if given. */
export function documentViewerPath(documentId: string, chunkId?: string | null): string {
  const params = new URLSearchParams({ view: documentId });
  if (chunkId) params.set("passage", chunkId);
  return `/documents?${params.toString()}`;
}

/** The documents of the workspace in view, their storage use and the search mode; polls while any is being read. */
export function useDocuments() {
  return useQuery({
    queryKey: documentKeys.list,
    queryFn: ({ signal }) => listDocuments(signal),
    refetchInterval: (query) =>
      query.state.data?.documents.some((document) => document.status === "processing")
        ? PROCESSING_POLL_MS
        : false,
  });
}

/** After an upload, rename or delete: the list (with usage), and every open viewer. */
export function refreshDocuments(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: DOCUMENTS_QUERY_KEY });
}
