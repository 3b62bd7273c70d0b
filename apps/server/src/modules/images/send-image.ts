import { generatedImageFileName } from "@cohort/contracts";
import type { FastifyReply } from "fastify";
import type { DocumentStore } from "../documents/document-store";
import type { ImageRow } from "./image-row";

/**
 * The image's file, shown inline or (`download`) as an attachment. What it may do is nothing:
 * nosniff, and a sandboxing CSP, so an SVG opened on its own runs no script and loads nothing
 * (in an <img> it never does).
 */
export async function sendImage(
  reply: FastifyReply,
  store: DocumentStore,
  image: ImageRow,
  download: boolean,
) {
  const body = await store.open(image.storage_key);
  const name = generatedImageFileName(image.id, image.media_type);
  return reply
    .header("content-type", image.media_type)
    .header("content-length", String(image.size_bytes))
    .header("content-disposition", `${download ? "attachment" : "inline"}; filename="${name}"`)
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    .header("cross-origin-resource-policy", "same-origin")
    .header("cache-control", "private, max-age=86400")
    .send(body);
}
