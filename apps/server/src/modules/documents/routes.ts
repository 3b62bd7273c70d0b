import { randomUUID } from "node:crypto";
import path from "node:path";
import {
  DOCUMENT_ERROR_CODES,
  DOCUMENT_NAME_MAX,
  DOCUMENT_QUOTA_BYTES,
  DOCUMENT_UPLOAD_FIELD,
  ERROR_CODES,
  parseDocumentIds,
  ZDeleteDocumentResponse,
  ZDocumentChunksResponse,
  ZDocumentParams,
  ZDocumentResponse,
  ZDocumentSearchQuery,
  ZDocumentSearchResponse,
  ZDocumentsResponse,
  ZPassageParams,
  ZPassageResponse,
  ZRenameDocumentRequest,
} from "@cohort/contracts";
import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import { creditsDeps } from "../credits/credits-deps";
import { checkUpload, quotaExceeded } from "./check-upload";
import { createDocument } from "./create-document";
import { deleteDocument } from "./delete-document";
import { usedStorage } from "./document-quota";
import { createSearcher } from "./document-search";
import { createDocumentStore } from "./document-store";
import { documentEmbedder } from "./embed-texts";
import { findChunks, findPassage } from "./find-chunks";
import { findDocument, listDocuments } from "./find-documents";
import { createDocumentProcessor } from "./process-document";
import { receiveUpload } from "./receive-upload";
import { renameDocument } from "./rename-document";

const tags = ["documents"];

function notFound(): AppError {
  return new AppError(ERROR_CODES.notFound, 404, "Document not found.");
}

/** The name as shown: its last path part, without control characters, at most 255 long. */
function displayName(filename: string | undefined): string {
  const base = path.basename((filename ?? "").replaceAll("\\", "/"));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = base.replace(/[\u0000-\u001f\u007f\uE000\uE001]/g, "").trim();
  return (clean || "document").slice(0, DOCUMENT_NAME_MAX);
}

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name. */
function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * Documents (issue 13, decision 036): upload, list, view, search, download, rename, delete.
 * Every call is the owner's only: anyone else's ids answer 404.
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
  const spoolDir = path.join(app.config.dataDir, "documents", ".spool");
  app.addHook("onReady", () => processor.resumeStale());
  app.addHook("preClose", () => processor.stop());

  // Only this plugin takes multipart bodies; one file, no other fields.
  await app.register(multipart, { throwFileSizeLimit: false });
  // One file, no other fields. Browsers send the file name as UTF-8 bytes: busboy's
  // defParamCharset (missing from @fastify/multipart's types, hence not a literal).
  const uploadOptions = {
    defParamCharset: "utf8",
    limits: { fileSize: config.maxFileBytes, files: 1, fields: 0, parts: 1 },
  };

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/documents",
    {
      schema: {
        tags,
        summary: `Upload one document (multipart/form-data, field "${DOCUMENT_UPLOAD_FIELD}")`,
        consumes: ["multipart/form-data"],
        response: { 201: ZDocumentResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      if (!request.isMultipart()) {
        throw new AppError(
          ERROR_CODES.unsupportedMediaType,
          415,
          `Send the file as multipart/form-data in the field "${DOCUMENT_UPLOAD_FIELD}".`,
        );
      }
      const part = await request.file(uploadOptions).catch((error: { code?: string }) => {
        // Multipart's own limits (another field, several parts) answer as one clear refusal.
        if (error.code?.startsWith("FST_") && error.code.endsWith("_LIMIT")) {
          throw new AppError(
            ERROR_CODES.badRequest,
            400,
            `Send exactly one file per request, in the field "${DOCUMENT_UPLOAD_FIELD}", with no other fields.`,
          );
        }
        throw error;
      });
      if (!part || part.fieldname !== DOCUMENT_UPLOAD_FIELD) {
        throw new AppError(
          DOCUMENT_ERROR_CODES.missingFile,
          400,
          `No file was sent. Send it in the field "${DOCUMENT_UPLOAD_FIELD}".`,
        );
      }
      const id = randomUUID();
      const name = displayName(part.filename);
      const received = await receiveUpload(part.file, spoolDir, id);
      const quotaBytes = DOCUMENT_QUOTA_BYTES[user.subscription_tier];
      const detected = await checkUpload({
        received,
        truncated: part.file.truncated,
        name,
        maxFileBytes: config.maxFileBytes,
        usedBytes: await usedStorage(app.db, user.id),
        quotaBytes,
      });
      await store.put(id, received.spoolFile, received.size);
      const created = await createDocument(
        app.db,
        {
          id,
          userId: user.id,
          name,
          kind: detected.kind,
          mediaType: detected.mediaType,
          sizeBytes: received.size,
          store: store.kind,
        },
        quotaBytes,
      ).catch(async (error: unknown) => {
        await store.remove(id);
        throw error;
      });
      if (!created) {
        await store.remove(id);
        throw quotaExceeded(received.size, quotaBytes);
      }
      processor.enqueue(id);
      const document = await findDocument(app.db, user.id, id);
      return reply.status(201).send({ document: document as NonNullable<typeof document> });
    },
  );

  r.get(
    "/api/documents",
    {
      schema: {
        tags,
        summary: "The user's documents, storage use, search mode and where files are kept",
        response: { 200: ZDocumentsResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const [documents, used] = await Promise.all([
        listDocuments(app.db, user.id),
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

  r.get(
    "/api/documents/search",
    {
      schema: {
        tags,
        summary: "Search the user's ready documents; snippets mark matches with U+E000/U+E001",
        querystring: ZDocumentSearchQuery,
        response: { 200: ZDocumentSearchResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const { q, document_ids, limit } = request.query;
      const ids = document_ids === undefined ? undefined : parseDocumentIds(document_ids);
      const result = await searcher.search({ userId: user.id, query: q, documentIds: ids, limit });
      return { query: q, ...result };
    },
  );

  r.get(
    "/api/documents/passages/:chunkId",
    {
      schema: {
        tags,
        summary: "One passage of the user's documents (for citations)",
        params: ZPassageParams,
        response: { 200: ZPassageResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const passage = await findPassage(app.db, user.id, request.params.chunkId);
      if (!passage) throw new AppError(ERROR_CODES.notFound, 404, "Passage not found.");
      return { passage };
    },
  );

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
      const document = await findDocument(app.db, user.id, request.params.id);
      if (!document) throw notFound();
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
      const chunks = await findChunks(app.db, user.id, request.params.id);
      if (!chunks) throw notFound();
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
      const { rows } = await app.db.query<{
        name: string;
        storage_key: string;
        size_bytes: number;
      }>("SELECT name, storage_key, size_bytes FROM documents WHERE id = $1 AND user_id = $2", [
        request.params.id,
        user.id,
      ]);
      const row = rows[0];
      if (!row) throw notFound();
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
        summary: "Rename a document",
        params: ZDocumentParams,
        body: ZRenameDocumentRequest,
        response: { 200: ZDocumentResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const name = displayName(request.body.name);
      if (!(await renameDocument(app.db, user.id, request.params.id, name))) throw notFound();
      const document = await findDocument(app.db, user.id, request.params.id);
      if (!document) throw notFound();
      return { document };
    },
  );

  r.delete(
    "/api/documents/:id",
    {
      schema: {
        tags,
        summary: "Delete a document: its file, chunks, vectors and session attachments",
        params: ZDocumentParams,
        response: { 200: ZDeleteDocumentResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      if (!(await deleteDocument(app.db, store, user.id, request.params.id))) throw notFound();
      return { deleted: true as const };
    },
  );
}
