import {
  EXPORT_ERROR_CODES,
  exportFilename,
  generatedImagePath,
  SESSION_EXPORT_FORMAT,
  SESSION_EXPORT_ROUTES,
  SESSION_IMPORT_MAX_BYTES,
  type TExportFormat,
  ZSessionExportQuery,
  ZSessionImportQuery,
  ZSessionImportResponse,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Queryable } from "../../db/client";
import { requireAgreement } from "../agreements/require-agreement";
import type { DocumentStore } from "../documents/document-store";
import { listSessionImages } from "../images/find-image";
import { findSessionFor } from "../sessions/find-session";
import { buildSessionExport } from "./build-session-export";
import { importSessionExport } from "./import-session-export";
import { createPdfRenderer } from "./render-pdf";
import { renderSessionMarkdown } from "./render-session-markdown";

const tags = ["export"];

const CONTENT_TYPES: Record<TExportFormat, string> = {
  json: "application/json; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  pdf: "application/pdf",
};
const EXTENSIONS: Record<TExportFormat, string> = { json: "json", markdown: "md", pdf: "pdf" };

/**
 * A session as Markdown, JSON or PDF (anyone who can read it: viewer and above in its
 * workspace), and a JSON export imported as a new session (decision 043).
 */
export async function exportRoutes(
  app: FastifyInstance,
  options: { imageStore: DocumentStore },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const pdfRenderer = createPdfRenderer(app.config.pdfExport);
  app.addHook("onClose", () => pdfRenderer.close());

  r.get(
    "/api/sessions/:id/export",
    {
      schema: {
        tags,
        summary:
          "Download a session: json (lossless, versioned: every run, step, cost, score and citation), markdown (to read) or pdf",
        params: z.object({ id: z.string() }),
        querystring: ZSessionExportQuery,
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const session = await findSessionFor(app.db, user.id, request.params.id, {
        least: "viewer",
      });
      const { format } = request.query;
      const data = await buildSessionExport(app.db, session.id);
      // Drawn before the headers are set: a refusal leaves as the usual JSON error.
      const markdown = format === "json" ? "" : renderSessionMarkdown(data);
      const pdf =
        format === "pdf"
          ? await pdfRenderer.render(
              markdown,
              session.title,
              await pdfPictures(app.db, options.imageStore, session.id),
            )
          : null;
      reply
        .header("content-type", CONTENT_TYPES[format])
        .header(
          "content-disposition",
          `attachment; filename="${exportFilename(session.title, EXTENSIONS[format])}"`,
        )
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "private, no-store");
      if (format === "json") return reply.send(`${JSON.stringify(data, null, 2)}\n`);
      // A Markdown file read elsewhere links its pictures on this server (decision 064).
      return reply.send(pdf ?? withAbsoluteImageLinks(markdown, app.config.publicUrl));
    },
  );

  r.post(
    SESSION_EXPORT_ROUTES.import,
    {
      bodyLimit: SESSION_IMPORT_MAX_BYTES,
      schema: {
        tags,
        summary: `Import a JSON export ("format": "${SESSION_EXPORT_FORMAT}") as a new session in a workspace (member and above; the personal one by default). Its runs are marked imported and cost nothing. ${EXPORT_ERROR_CODES.unsupportedVersion} names a version this server cannot read`,
        querystring: ZSessionImportQuery,
        body: z.looseObject({ format: z.unknown(), version: z.unknown() }),
        response: { 201: ZSessionImportResponse },
      },
    },
    async (request, reply) => {
      const { user } = await requireAgreement(request);
      const imported = await importSessionExport(
        app.db,
        app.models.catalogue,
        { id: user.id, tier: user.subscription_tier },
        request.query.workspace_id,
        request.body,
      );
      return reply.status(201).send(imported);
    },
  );
}

/** The most picture bytes one PDF embeds; past it, later pictures stay "[image: …]". */
const PDF_PICTURE_BYTES = 24 * 1024 * 1024;

/**
 * The session's PNG and JPEG pictures for the PDF, by the path its Markdown shows them at
 * (decision 064). SVG (the simulator's) is not drawn by pdfkit: it stays a labelled mention.
 */
async function pdfPictures(
  db: Queryable,
  store: DocumentStore,
  sessionId: string,
): Promise<[string, Uint8Array][]> {
  const out: [string, Uint8Array][] = [];
  let total = 0;
  for (const image of await listSessionImages(db, sessionId)) {
    if (image.media_type !== "image/png" && image.media_type !== "image/jpeg") continue;
    if (total + Number(image.size_bytes) > PDF_PICTURE_BYTES) break;
    const bytes = await store.read(image.storage_key);
    total += bytes.byteLength;
    out.push([generatedImagePath(image.id), new Uint8Array(bytes)]);
  }
  return out;
}

/** The Markdown with its pictures' paths made links to this server. */
function withAbsoluteImageLinks(markdown: string, publicUrl: string): string {
  return markdown.replace(/\]\(\/api\/images\//g, `](${publicUrl.replace(/\/+$/, "")}/api/images/`);
}
