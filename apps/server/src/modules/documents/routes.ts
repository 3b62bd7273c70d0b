import { randomUUID } from "node:crypto";
import path from "node:path";
import {
  DOCUMENT_ERROR_CODES,
  DOCUMENT_NAME_MAX,
  DOCUMENT_QUOTA_BYTES,
  DOCUMENT_UPLOAD_FIELD,
  DOCUMENT_WORKSPACE_FIELD,
  ERROR_CODES,
  parseDocumentIds,
  ZDeleteDocumentResponse,
  ZDocumentChunksResponse,
  ZDocumentParams,
  ZDocumentResponse,
  ZDocumentSearchQuery,
  ZDocumentSearchResponse,
  ZDocumentsQuery,
  ZDocumentsResponse,
  ZPassageParams,
  ZPassageResponse,
  ZRenameDocumentRequest,
  ZWorkspaceScope,
} from "@cohort/contracts";
import multipart, { type MultipartFields } from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import { creditsDeps } from "../credits/credits-deps";
import { findWorkspaceAccess, requireWorkspaceAccess } from "../workspaces/workspace-access";
import { checkUpload, quotaExceeded } from "./check-upload";
import { createDocument } from "./create-document";
import { deleteDocument } from "./delete-document";
import { documentNotFound, findChangeableDocument, findDocumentFor } from "./document-access";
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
const ONE_FILE_ONLY = `Send exactly one file per request, in the field "${DOCUMENT_UPLOAD_FIELD}", with no other fields than "${DOCUMENT_WORKSPACE_FIELD}".`;
export const MALFORMED_UPLOAD =
  "The upload was cut short or is not valid multipart/form-data. Send the file again.";

/**
 * A body the multipart parser cannot read (cut short, no boundary, a broken part header) is
 * the client's fault: 400, not 500 (decision 052). Our own refusals and the system's errors
 * (a full disk) pass through unchanged.
 */
function refuseMalformedUpload(error: unknown): never {
  if (error instanceof AppError) throw error;
  const known = error as { code?: unknown; syscall?: unknown; statusCode?: unknown };
  if (known.syscall !== undefined) throw error;
  if (typeof known.statusCode === "number" && known.statusCode < 500) throw error;
  throw new AppError(ERROR_CODES.badRequest, 400, MALFORMED_UPLOAD);
}

/**
 * The name as shown: its last path part, without control characters, at most 255 long. Bidi
 * controls (U+202A–U+202E, U+2066–U+2069, U+200E/F) go too: `invoice\u202Efdp.exe` would
 * read as "invoiceexe.pdf" (decision 051).
 */
function displayName(filename: string | undefined): string {
  const base = path.basename((filename ?? "").replaceAll("\\", "/"));
  const clean = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001f\u007f\uE000\uE001\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, "")
    .trim();
  return (clean || "document").slice(0, DOCUMENT_NAME_MAX);
}

/**
 * The upload's workspace: the optional field sent before the file (undefined: the personal
 * one). Any other field, or a workspace id that is no uuid, refuses the upload (400), so a
 * mistyped field never puts a team's file in the personal workspace unnoticed.
 */
function uploadWorkspace(fields: MultipartFields): string | undefined {
  const refused = (message: string) => new AppError(ERROR_CODES.badRequest, 400, message);
  for (const name of Object.keys(fields)) {
    if (name !== DOCUMENT_UPLOAD_FIELD && name !== DOCUMENT_WORKSPACE_FIELD) {
      throw refused(ONE_FILE_ONLY);
    }
  }
  const field = fields[DOCUMENT_WORKSPACE_FIELD];
  if (field === undefined) return undefined;
  const value = !Array.isArray(field) && field.type === "field" ? field.value : undefined;
  const parsed = ZWorkspaceScope.shape.workspace_id.safeParse(value);
  if (!parsed.success || parsed.data === undefined) {
    throw refused(`"${DOCUMENT_WORKSPACE_FIELD}" must be a workspace id.`);
  }
  return parsed.data;
}

/** RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name. */
function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * Documents (decision 036): upload, list, view, search, download, rename, delete.
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
  const spoolDir = path.join(app.config.dataDir, "documents", ".spool");
  app.addHook("onReady", () => processor.resumeStale());
  app.addHook("preClose", () => processor.stop());

  // Only this plugin takes multipart bodies.
  await app.register(multipart, { throwFileSizeLimit: false });
  // One file and at most the workspace field before it. Browsers send the file name as
  // UTF-8 bytes: busboy's defParamCharset (missing from @fastify/multipart's types, hence
  // not a literal).
  const uploadOptions = {
    defParamCharset: "utf8",
    limits: { fileSize: config.maxFileBytes, files: 1, fields: 1, parts: 2 },
  };

  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    "/api/documents",
    {
      schema: {
        tags,
        summary: `Upload one document (multipart/form-data, field "${DOCUMENT_UPLOAD_FIELD}"; optionally "${DOCUMENT_WORKSPACE_FIELD}" before it, member+)`,
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
          throw new AppError(ERROR_CODES.badRequest, 400, ONE_FILE_ONLY);
        }
        return refuseMalformedUpload(error);
      });
      if (!part || part.fieldname !== DOCUMENT_UPLOAD_FIELD) {
        throw new AppError(
          DOCUMENT_ERROR_CODES.missingFile,
          400,
          `No file was sent. Send it in the field "${DOCUMENT_UPLOAD_FIELD}".`,
        );
      }
      // Checked before the file is read: an outsider's upload is refused, not spooled.
      const workspace = await requireWorkspaceAccess(
        app.db,
        user.id,
        uploadWorkspace(part.fields),
        "member",
      );
      const id = randomUUID();
      const name = displayName(part.filename);
      const received = await receiveUpload(part.file, spoolDir, id).catch(refuseMalformedUpload);
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
          workspaceId: workspace.workspaceId,
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
      const document = await findDocument(app.db, id);
      return reply.status(201).send({ document: document as NonNullable<typeof document> });
    },
  );

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

  r.get(
    "/api/documents/search",
    {
      schema: {
        tags,
        summary:
          "Search a workspace's ready documents (the personal one by default); snippets mark matches with U+E000/U+E001",
        querystring: ZDocumentSearchQuery,
        response: { 200: ZDocumentSearchResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const { q, document_ids, limit, workspace_id } = request.query;
      const workspace = await requireWorkspaceAccess(app.db, user.id, workspace_id);
      const ids = document_ids === undefined ? undefined : parseDocumentIds(document_ids);
      const result = await searcher.search({
        workspaceId: workspace.workspaceId,
        query: q,
        documentIds: ids,
        limit,
      });
      return { query: q, ...result };
    },
  );

  r.get(
    "/api/documents/passages/:chunkId",
    {
      schema: {
        tags,
        summary: "One passage of a document the user can read (for citations)",
        params: ZPassageParams,
        response: { 200: ZPassageResponse },
      },
    },
    async (request) => {
      const { user } = await requireAgreement(request);
      const found = await findPassage(app.db, request.params.chunkId);
      const readable = found && (await findWorkspaceAccess(app.db, user.id, found.workspaceId));
      if (!found || !readable) throw new AppError(ERROR_CODES.notFound, 404, "Passage not found.");
      return { passage: found.passage };
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
