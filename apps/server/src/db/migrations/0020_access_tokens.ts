import type { Migration } from "../migrate";

/**
 * access-tokens: personal access tokens for the public API (decision 033). Only the SHA-256
 * of a token is kept; `last4` lets the owner tell tokens apart. `last_used_*` is written at
 * most once a minute per token.
 */
export const accessTokensMigration: Migration = {
  id: "0020_access_tokens",
  sql: `
    CREATE TABLE access_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name text NOT NULL,
      token_hash text NOT NULL,
      last4 text NOT NULL,
      scopes text[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz,
      last_used_at timestamptz,
      last_used_ip text,
      revoked_at timestamptz
    );
    CREATE UNIQUE INDEX access_tokens_token_hash ON access_tokens (token_hash);
    CREATE INDEX access_tokens_user ON access_tokens (user_id, created_at DESC);
  `,
};
