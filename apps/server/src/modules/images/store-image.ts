import { randomUUID } from "node:crypto";
import { generatedImagePath } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import type { DocumentStore } from "../documents/document-store";
import type { MadeImage } from "../models/gateway";

export interface ImageOwner {
  sessionId: string;
  runId: string | null;
  callId: string | null;
  userId: string;
}

/**
 * Keeps an image a model made (decision 064): the file first, then its row, so a row never
 * points at nothing. Its key is a fresh UUID, its path the one only the session's readers
 * (and its share links) are served.
 */
export async function storeImage(
  db: Queryable,
  store: DocumentStore,
  owner: ImageOwner,
  image: MadeImage,
): Promise<{ id: string; url: string }> {
  const id = randomUUID();
  const key = randomUUID();
  await store.write(key, image.bytes, image.mediaType);
  try {
    await db.query(
      `INSERT INTO generated_images (id, session_id, run_id, call_id, created_by, model, provider,
         provider_model, simulated, prompt, media_type, size_bytes, storage_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        id,
        owner.sessionId,
        owner.runId,
        owner.callId,
        owner.userId,
        image.modelId,
        image.provider,
        image.providerModel,
        image.simulated,
        image.prompt,
        image.mediaType,
        image.bytes.byteLength,
        key,
      ],
    );
  } catch (error) {
    await store.remove(key).catch(() => undefined);
    throw error;
  }
  return { id, url: generatedImagePath(id) };
}
