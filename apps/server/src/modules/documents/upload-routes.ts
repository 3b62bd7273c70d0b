import { randomUUID } from "node:crypto";
import path from "node:path";
import {
  DOCUMENT_ERROR_CODES,
  DOCUMENT_QUOTA_BYTES,
  DOCUMENT_UPLOAD_FIELD,
  DOCUMENT_WORKSPACE_FIELD,
  ERROR_CODES,
  ZDocumentResponse,
  ZWorkspaceScope,
} from "@cohort/contracts";
import multipart, { type MultipartFields } from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import { requireWorkspaceAccess } from "../workspaces/workspace-access";
import { checkUpload, quotaExceeded } from "./check-upload";
import { createDocument } from "./create-document";
import { displayName } from "./document-name";
import { usedStorage } from "./document-quota";
import type { DocumentStore } from "./document-store";
import { findDocument } from "./find-documents";
import type { DocumentProcessor } from "./process-document";
import { receiveUpload } from "./receive-upload";

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

/**
 * Upload (decision 036): one file a request, into a workspace the uploader is a member of,
 * checked and counted against the uploader's quota before it is stored, then processed.
 */
export async function uploadRoutes(
  app: FastifyInstance,
  { store, processor }: { store: DocumentStore; processor: DocumentProcessor },
): Promise<void> {
  const config = app.config.documents;
  const spoolDir = path.join(app.config.dataDir, "documents", ".spool");

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
}
