import type { Migration } from "../migrate";

/**
 * code-runner (decision 068): the files run_code wrote in a session's runs, kept so the lane
 * can offer them for download. The bytes are files (DATA_DIR/code-files or the S3 bucket, as
 * documents and images are); a row says whose session they belong to, so only its readers
 * get them.
 */
export const codeRunFilesMigration: Migration = {
  id: "0048_code_run_files",
  sql: `
    CREATE TABLE code_run_files (
      id uuid PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      run_id uuid,
      tool_call_id text,
      name text NOT NULL,
      media_type text NOT NULL,
      size_bytes integer NOT NULL,
      storage_key text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX code_run_files_session ON code_run_files (session_id, created_at);
  `,
};
