import type { Migration } from "../migrate";

/**
 * sessions: what an imported session came from and what it takes (decision 052). The export's
 * own date marks the copy ("Imported from export of 5 Dec"); its size counts against the
 * importer's storage quota, like a document, until the session is deleted.
 */
export const importOriginAndSizeMigration: Migration = {
  id: "0033_import_origin_and_size",
  sql: `
    ALTER TABLE sessions ADD COLUMN imported_export_at timestamptz;
    ALTER TABLE sessions ADD COLUMN imported_bytes bigint NOT NULL DEFAULT 0;
    CREATE INDEX sessions_imported_bytes ON sessions (user_id) WHERE imported_bytes > 0;
  `,
};
