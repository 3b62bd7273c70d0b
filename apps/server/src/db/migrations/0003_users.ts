import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const usersMigration: Migration = {
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
};
