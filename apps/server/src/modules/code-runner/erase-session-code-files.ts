import { sessionFilesEraser } from "../documents/erase-session-files";

/**
 * Erases the files run_code wrote in sessions that go with an account (decision 076): rows
 * and bytes, as the pictures are (decision 064). Returns how many were erased.
 */
export const eraseSessionCodeFiles = sessionFilesEraser(
  "DELETE FROM code_run_files WHERE session_id = ANY($1::uuid[]) RETURNING storage_key",
);
