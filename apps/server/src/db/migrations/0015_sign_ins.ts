import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const signInsMigration: Migration = {
  id: "0015_sign_ins",
  sql: `
      -- auth: "session" means a chat session only; a sign-in is a sign-in
      -- (docs/decisions/023-sign-ins-not-sessions.md). Rows, ids and tokens are kept.
      ALTER TABLE auth_sessions RENAME TO sign_ins;
      ALTER TABLE sign_ins RENAME CONSTRAINT auth_sessions_pkey TO sign_ins_pkey;
      ALTER TABLE sign_ins RENAME CONSTRAINT auth_sessions_token_hash_key TO sign_ins_token_hash_key;
      ALTER TABLE sign_ins RENAME CONSTRAINT auth_sessions_user_id_fkey TO sign_ins_user_id_fkey;
      ALTER INDEX auth_sessions_user RENAME TO sign_ins_user;
      -- Instances still running the old code during a rolling deploy read and write through
      -- this (automatically updatable) view; a later migration drops it.
      CREATE VIEW auth_sessions AS SELECT * FROM sign_ins;
    `,
};
