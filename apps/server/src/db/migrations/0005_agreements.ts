import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const agreementsMigration: Migration = {
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
};
