import type { Migration } from "../migrate";

/**
 * Every schema change, in order. Each module owns its tables; a migration names the
 * module it belongs to. Never edit an applied migration: add a new one.
 */
export const migrations: readonly Migration[] = [
  {
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
  },
];
