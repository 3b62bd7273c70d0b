import type { Migration } from "../migrate";

/**
 * export: sessions and runs that came in with an import of a JSON export (decision 043). An
 * imported run never ran here: it holds and charges nothing, and the Critic's verdicts it
 * brought (live runs keep theirs as run events) are kept with it.
 */
export const sessionImportsMigration: Migration = {
  id: "0027_session_imports",
  sql: `
    ALTER TABLE sessions ADD COLUMN imported_at timestamptz;
    -- The documents the exported session named (ids replaced): names only, never attachments.
    ALTER TABLE sessions ADD COLUMN imported_documents jsonb;
    ALTER TABLE runs ADD COLUMN imported boolean NOT NULL DEFAULT false;
    ALTER TABLE runs ADD COLUMN imported_verdicts jsonb;
  `,
};
