import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const platformMigration: Migration = {
  id: "0001_platform",
  sql: `
      -- platform: the dev outbox and other platform tables arrive with their modules.
      CREATE TABLE app_meta (
        key text PRIMARY KEY,
        value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO app_meta (key, value) VALUES ('created', to_jsonb(now()::text));
    `,
};
