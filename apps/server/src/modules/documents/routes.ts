import {
  DOCUMENT_QUOTA_BYTES,
  ZDeleteDocumentResponse,
  ZDocumentChunksResponse,
  ZDocumentParams,
  ZDocumentResponse,
  ZDocumentsQuery,
  ZDocumentsResponse,
  ZRenameDocumentRequest,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireAgreement } from "../agreements/require-agreement";
import { creditsDeps } from "../credits/credits-deps";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";
import { deleteDocument } from "./delete-document";
import { documentNotFound, findChangeableDocument, findDocumentFor } from "./document-access";
import { displayName } from "./document-name";
import { usedStorage } from "./document-quota";
import { createSearcher } from "./document-search";
import { createDocumentStore } from "./document-store";
import { documentEmbedder } from "./embed-texts";
import { findChunks } from "./find-chunks";
import { findDocument, listDocuments } from "./find-documents";
import { createDocumentProcessor } from "./process-document";
import { renameDocument } from "./rename-document";
import { searchRoutes } from "./search-routes";
import { uploadRoutes } from "./upload-routes";

const tags = ["documents"];

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name. */
function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * Documents (decision 036): upload, list, view, search, download, rename, delete; upload
 * and search are in their own files, registered here.
 * Each belongs to a workspace (decision 040): its members read it, members upload, the
 * uploader or an admin renames and deletes; anyone else's ids answer 404. Storage counts
 * against the uploader's own quota, whichever workspace the file is in.
 */
export async function documentRoutes(app: FastifyInstance): Promise<void> {
  const config = app.config.documents;
  const store = createDocumentStore(config, app.config.dataDir);
  const embedder = documentEmbedder(app);
  const searcher = createSearcher(app.db, embedder);
  const processor = createDocumentProcessor({
    db: app.db,
    store,
    config,
    log: app.log,
    embedder,
    publish: creditsDeps(app).publish,
  });
  app.addHook("onReady", () => processor.resumeStale());
  app.addHook("preClose", () => processor.stop());

  const r = app.withTypeProvider<ZodTypeProvider>();

  await uploadRoutes(app, { store, processor });

  r.get(
    "/api/documents",
    {
      schema: {
        tags,
        summary:
          "A workspace's documents (the personal one by default), the user's storage use, search mode and where files are kept",
        querystring: ZDocumentsQuery,
        response: { 200: ZDocumentsResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const workspace = await requireWorkspaceAccess(app.db, user.id, request.query.workspace_id);
      const [documents, used] = await Promise.all([
        listDocuments(app.db, workspace.workspaceId),
        usedStorage(app.db, user.id),
      ]);
      return {
        documents,
        usage: {
          used_bytes: used,
          quota_bytes: DOCUMENT_QUOTA_BYTES[user.subscription_tier],
          max_file_bytes: config.maxFileBytes,
        },
        search_mode: searcher.mode,
        embedding_model: app.config.documents.embeddingModel ?? null,
        store: store.kind,
      };
    },
  );

  await searchRoutes(app, searcher);

  r.get(
    "/api/documents/:id",
    {
      schema: {
        tags,
        summary: "One document",
        params: ZDocumentParams,
        response: { 200: ZDocumentResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      await findDocumentFor(app.db, user.id, request.params.id);
      const document = await findDocument(app.db, request.params.id);
      if (!document) throw documentNotFound();
      return { document };
    },
  );

  r.get(
    "/api/documents/:id/chunks",
    {
      schema: {
        tags,
        summary: "The document's extracted text, as chunks in reading order",
        params: ZDocumentParams,
        response: { 200: ZDocumentChunksResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      await findDocumentFor(app.db, user.id, request.params.id);
      const chunks = await findChunks(app.db, request.params.id);
      return { document_id: request.params.id, chunks };
    },
  );

  r.get(
    "/api/documents/:id/download",
    {
      schema: {
        tags,
        summary: "The original file, always as an attachment (never rendered)",
        params: ZDocumentParams,
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      await findDocumentFor(app.db, user.id, request.params.id);
      const { rows } = await app.db.query<{
        name: string;
        storage_key: string;
        size_bytes: number;
      }>("SELECT name, storage_key, size_bytes FROM documents WHERE id = $1", [request.params.id]);
      const row = rows[0];
      if (!row) throw documentNotFound();
      const body = await store.open(row.storage_key);
      return reply
        .header("content-type", "application/octet-stream")
        .header("content-disposition", attachmentHeader(row.name))
        .header("content-length", String(row.size_bytes))
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("cache-control", "private, no-store")
        .send(body);
    },
  );

  r.patch(
    "/api/documents/:id",
    {
      schema: {
        tags,
        summary: "Rename a document (its uploader, or an admin of its workspace)",
        params: ZDocumentParams,
        body: ZRenameDocumentRequest,
        response: { 200: ZDocumentResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      await findChangeableDocument(app.db, user.id, request.params.id);
      const name = displayName(request.body.name);
      if (!(await renameDocument(app.db, request.params.id, name))) throw documentNotFound();
      const document = await findDocument(app.db, request.params.id);
      if (!document) throw documentNotFound();
      return { document };
    },
  );

  r.delete(
    "/api/documents/:id",
    {
      schema: {
        tags,
        summary:
          "Delete a document: its file, chunks, vectors and session attachments (its uploader, or an admin of its workspace)",
        params: ZDocumentParams,
        response: { 200: ZDeleteDocumentResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const document = await findChangeableDocument(app.db, user.id, request.params.id);
      if (!(await deleteDocument(app.db, store, document.uploaderId, document.documentId))) {
        throw documentNotFound();
      }
      return { deleted: true as const };
    },
  );
}
