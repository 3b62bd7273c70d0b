import { generatedImagePath, IMAGE_ERROR_CODES, type TGeneratedImageRef } from "@cohort/contracts";
import { AppError } from "../../platform/errors";

/** A stored image as this module reads it (decision 064). */
export interface ImageRow {
  id: string;
  session_id: string;
  run_id: string | null;
  model: string;
  simulated: boolean;
  prompt: string;
  media_type: string;
  size_bytes: number;
  storage_key: string;
  created_at: Date | string;
}

export const IMAGE_COLUMNS =
  "id, session_id, run_id, model, simulated, prompt, media_type, size_bytes, storage_key, created_at";

/** Whatever a caller may not see answers this, as for an image that does not exist. */
export const imageNotFound = () =>
  new AppError(IMAGE_ERROR_CODES.notFound, 404, "This image does not exist.");

export function toImageRef(row: ImageRow): TGeneratedImageRef {
  return {
    id: row.id,
    url: generatedImagePath(row.id),
    media_type: row.media_type,
    bytes: Number(row.size_bytes),
    model: row.model,
    simulated: row.simulated,
    prompt: row.prompt,
    created_at: new Date(row.created_at).toISOString(),
  };
}
