import { randomUUID } from "node:crypto";
import { ERROR_CODES } from "@cohort/contracts";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AppError } from "../../platform/errors";
import { requireAgreement } from "../agreements/require-agreement";
import type { DocumentStore } from "../documents/document-store";
import { findSessionFor } from "../sessions/find-session";
import type { SandboxFile } from "./sandbox";
import { SCRATCH_LIMITS } from "./scratch-files";

/**
 * The files run_code writes, kept for download from the lane (decision 068). Each written
 * file (within the scratch folder's caps: 10 MB a file, 50 MB a run) is stored like a
 * document under a fresh key, with a row naming its session; `GET /api/code-files/:id`
 * serves it, always as an attachment, to whoever may read that session, and the one 404 to
 * everyone else.
 */
export const CODE_FILE_PATH = "/api/code-files";

const TYPES: Record<string, string> = {
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  json: "application/json",
  py: "text/x-python; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  ts: "text/plain; charset=utf-8",
  html: "text/html; charset=utf-8",
  svg: "image/svg+xml",
  xml: "application/xml",
  log: "text/plain; charset=utf-8",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  zip: "application/zip",
};

/** The content type a file's name says; anything unknown is plain bytes. */
export function codeFileType(name: string): string {
  const extension = name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? "";
  return TYPES[extension] ?? "application/octet-stream";
}

export interface KeptCodeFile {
  name: string;
  mediaType: string;
  bytes: number;
  url: string;
}

interface Owner {
  sessionId: string;
  runId: string;
  callId: string;
}

/**
 * Stores the files a run wrote and answers what the lane lists. A session that is not one
 * (a tool called outside a run) keeps nothing; a file that cannot be stored is left out and
 * logged, never failing the run.
 */
export async function keepCodeFiles(
  deps: { db: Queryable; store: DocumentStore; log: { warn(o: object, m: string): void } },
  owner: Owner,
  files: readonly SandboxFile[],
): Promise<KeptCodeFile[]> {
  if (!isUuid(owner.sessionId)) return [];
  const kept: KeptCodeFile[] = [];
  let total = 0;
  for (const file of files) {
    const bytes = file.content.byteLength;
    if (bytes > SCRATCH_LIMITS.maxFileBytes || total + bytes > SCRATCH_LIMITS.maxTotalBytes) {
      continue;
    }
    const id = randomUUID();
    const key = randomUUID();
    const mediaType = codeFileType(file.name);
    try {
      await deps.store.write(key, file.content, mediaType);
      try {
        await deps.db.query(
          `INSERT INTO code_run_files
             (id, session_id, run_id, tool_call_id, name, media_type, size_bytes, storage_key)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            id,
            owner.sessionId,
            isUuid(owner.runId) ? owner.runId : null,
            owner.callId,
            file.name,
            mediaType,
            bytes,
            key,
          ],
        );
      } catch (error) {
        await deps.store.remove(key).catch(() => undefined);
        throw error;
      }
      total += bytes;
      kept.push({ name: file.name, mediaType, bytes, url: `${CODE_FILE_PATH}/${id}` });
    } catch (error) {
      deps.log.warn({ err: error, name: file.name }, "could not keep a file run_code wrote");
    }
  }
  return kept;
}

interface CodeFileRow {
  id: string;
  session_id: string;
  name: string;
  media_type: string;
  size_bytes: number;
  storage_key: string;
}

const notFound = () =>
  new AppError(ERROR_CODES.notFound, 404, "This file does not exist or is not yours to see.");

/** A file-name for Content-Disposition: the last part of its path, both forms (RFC 6266). */
function disposition(name: string): string {
  const base = name.split("/").at(-1) ?? "file";
  const ascii = base.replace(/[^\w.-]+/g, "_").slice(0, 150) || "file";
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(base)}`;
}

async function send(reply: FastifyReply, store: DocumentStore, file: CodeFileRow) {
  const body = await store.open(file.storage_key);
  return reply
    .header("content-type", file.media_type)
    .header("content-length", String(file.size_bytes))
    .header("content-disposition", disposition(file.name))
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; sandbox")
    .header("cross-origin-resource-policy", "same-origin")
    .header("cache-control", "private, no-store")
    .send(body);
}

/** GET /api/code-files/:id for the session's readers (viewer and up). */
export async function codeFileRoutes(
  app: FastifyInstance,
  options: { store: DocumentStore },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    `${CODE_FILE_PATH}/:id`,
    {
      schema: {
        tags: ["code"],
        summary: "A file run_code wrote in one of your sessions, as a download",
        params: z.object({ id: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      if (!isUuid(request.params.id)) throw notFound();
      const { rows } = await app.db.query<CodeFileRow>(
        `SELECT id, session_id, name, media_type, size_bytes, storage_key
         FROM code_run_files WHERE id = $1`,
        [request.params.id],
      );
      const file = rows[0];
      if (!file) throw notFound();
      try {
        await findSessionFor(app.db, user.id, file.session_id);
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 404) throw notFound();
        throw error;
      }
      return send(reply, options.store, file);
    },
  );
}
