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
  {
    id: "0002_mail",
    sql: `
      -- platform/mail: messages kept instead of sent when no SMTP server is configured.
      CREATE TABLE dev_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "to" text NOT NULL,
        subject text NOT NULL,
        text text NOT NULL,
        html text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX dev_outbox_created_at ON dev_outbox (created_at DESC);
    `,
  },
  {
    id: "0003_users",
    sql: `
      -- users: the account and its profile. Email is stored lower-cased.
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        first_name text NOT NULL DEFAULT '',
        last_name text NOT NULL DEFAULT '',
        display_name text,
        photo_url text,
        email_verified_at timestamptz,
        role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
        credits_remaining numeric NOT NULL DEFAULT 0 CHECK (credits_remaining >= 0),
        subscription_tier text NOT NULL DEFAULT 'free'
          CHECK (subscription_tier IN ('free', 'starter', 'pro', 'pro+', 'enterprise')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_key ON users (lower(email));
      CREATE INDEX users_created_at ON users (created_at DESC);
    `,
  },
  {
    id: "0004_auth",
    sql: `
      -- auth: credentials, sessions, single-use email tokens, linked identities, throttling.
      CREATE TABLE password_credentials (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        password_hash text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE auth_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz NOT NULL DEFAULT now(),
        idle_expires_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        user_agent text,
        ip text
      );
      CREATE INDEX auth_sessions_user ON auth_sessions (user_id) WHERE revoked_at IS NULL;
      CREATE TABLE auth_tokens (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
        email text NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX auth_tokens_user ON auth_tokens (user_id, purpose);
      CREATE TABLE user_identities (
        provider text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        email text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, subject)
      );
      CREATE INDEX user_identities_user ON user_identities (user_id);
      CREATE TABLE auth_throttle (
        key text NOT NULL,
        window_start timestamptz NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (key, window_start)
      );
    `,
  },
  {
    id: "0005_agreements",
    sql: `
      -- agreements: published versions and each user's acceptances (and allowed declines).
      CREATE TABLE agreements (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        version text NOT NULL UNIQUE,
        effective_date date NOT NULL,
        content text NOT NULL,
        allow_decline boolean NOT NULL DEFAULT false,
        published_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE agreement_acceptances (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        agreement_id uuid NOT NULL REFERENCES agreements (id),
        accepted_at timestamptz NOT NULL DEFAULT now(),
        source text NOT NULL,
        ip text,
        UNIQUE (user_id, agreement_id)
      );
      CREATE TABLE agreement_declines (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        agreement_id uuid NOT NULL REFERENCES agreements (id),
        declined_at timestamptz NOT NULL DEFAULT now(),
        source text NOT NULL,
        ip text,
        PRIMARY KEY (user_id, agreement_id)
      );
    `,
  },
];
