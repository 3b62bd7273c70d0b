import { sessionFilesEraser } from "../documents/erase-session-files";

/**
 * Erases the pictures of sessions that go with an account (decision 064): rows and files.
 * Returns how many were erased.
 */
export const eraseSessionImages = sessionFilesEraser(
  "DELETE FROM generated_images WHERE session_id = ANY($1::uuid[]) RETURNING storage_key",
);
