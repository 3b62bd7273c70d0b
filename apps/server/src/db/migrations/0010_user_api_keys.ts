import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const userApiKeysMigration: Migration = {
  id: "0010_user_api_keys",
  sql: `
      -- users: provider keys users bring (BYOK), AES-256-GCM encrypted; key_id names the
      -- encryption key that sealed each value, so ENCRYPTION_KEY can be rotated.
      CREATE TABLE user_api_keys (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        provider text NOT NULL
          CHECK (provider IN ('openai', 'anthropic', 'google', 'openai-compatible')),
        ciphertext text NOT NULL,
        iv text NOT NULL,
        auth_tag text NOT NULL,
        key_id text NOT NULL,
        last4 text NOT NULL,
        base_url text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, provider)
      );
    `,
};
