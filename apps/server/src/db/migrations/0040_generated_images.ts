import type { Migration } from "../migrate";

/**
 * images (decision 064): the pictures image models made in a session's runs. The bytes are
 * files (DATA_DIR/images or the S3 bucket, as documents are); a row says whose session they
 * belong to, so only its readers (and its share links) get them.
 */
export const generatedImagesMigration: Migration = {
  id: "0040_generated_images",
  sql: `
    CREATE TABLE generated_images (
      id uuid PRIMARY KEY,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      run_id uuid,
      call_id uuid,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      model text NOT NULL,
      provider text NOT NULL,
      provider_model text NOT NULL,
      simulated boolean NOT NULL,
      prompt text NOT NULL,
      media_type text NOT NULL,
      size_bytes integer NOT NULL,
      storage_key text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX generated_images_session ON generated_images (session_id, created_at);
  `,
};
