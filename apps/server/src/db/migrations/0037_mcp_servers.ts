import type { Migration } from "../migrate";

/**
 * mcp-servers (decision 060): the remote MCP servers users and team workspaces connect as
 * tool sources. A personal workspace's id is its user's, so "mine" is the personal
 * workspace. A bearer token or OAuth tokens are sealed like provider keys (AES-256-GCM, the
 * row bound in as additional data; for OAuth the secret is the JSON of the registered client,
 * the tokens and a pending PKCE verifier); the last tool list is kept to show without a call.
 */
export const mcpServersMigration: Migration = {
  id: "0037_mcp_servers",
  sql: `
    CREATE TABLE mcp_servers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 40),
      slug text NOT NULL,
      url text NOT NULL,
      transport text NOT NULL CHECK (transport IN ('streamable_http', 'sse')),
      auth_kind text NOT NULL CHECK (auth_kind IN ('none', 'bearer', 'oauth')),
      oauth_scope text,
      -- An OAuth sign-in under way: the state sent to the authorization server, to find the
      -- row again on the callback (the PKCE verifier sits in the sealed secret).
      oauth_state text UNIQUE,
      secret_ciphertext text,
      secret_iv text,
      secret_tag text,
      secret_key_id text,
      secret_last4 text,
      state text NOT NULL DEFAULT 'unknown'
        CHECK (state IN ('unknown', 'connected', 'needs_authorization', 'error')),
      last_error text,
      last_checked_at timestamptz,
      tools jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      UNIQUE (workspace_id, slug)
    );
  `,
};
