import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const creditsMigration: Migration = {
  id: "0006_credits",
  sql: `
      -- credits: balances, the append-only ledger, holds and usage. Every amount is a bigint
      -- count of hundredths of a credit, so sums are exact.
      CREATE TABLE credit_accounts (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
        held bigint NOT NULL DEFAULT 0 CHECK (held >= 0 AND held <= balance),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE credit_ledger (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        delta bigint NOT NULL CHECK (delta <> 0),
        balance_after bigint NOT NULL CHECK (balance_after >= 0),
        reason text NOT NULL,
        reference text NOT NULL,
        description text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (reason, reference)
      );
      CREATE INDEX credit_ledger_user ON credit_ledger (user_id, id DESC);
      CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'credit_ledger is append-only';
      END
      $$;
      CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE ON credit_ledger
        FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only();
      CREATE TABLE credit_holds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        reference text NOT NULL UNIQUE,
        amount bigint NOT NULL CHECK (amount > 0),
        charged bigint NOT NULL DEFAULT 0 CHECK (charged >= 0 AND charged <= amount),
        status text NOT NULL DEFAULT 'open'
          CHECK (status IN ('open', 'settled', 'released', 'expired')),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        closed_at timestamptz
      );
      CREATE INDEX credit_holds_open ON credit_holds (expires_at) WHERE status = 'open';
      CREATE TABLE usage_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        reference text NOT NULL UNIQUE,
        model text NOT NULL,
        provider text NOT NULL,
        input_tokens integer NOT NULL DEFAULT 0 CHECK (input_tokens >= 0),
        output_tokens integer NOT NULL DEFAULT 0 CHECK (output_tokens >= 0),
        credits bigint NOT NULL DEFAULT 0 CHECK (credits >= 0),
        cost_usd numeric(16, 6) NOT NULL DEFAULT 0 CHECK (cost_usd >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX usage_events_user_time ON usage_events (user_id, created_at);
      -- users: the cached balance moves to credit_accounts, backed by an opening ledger row.
      INSERT INTO credit_accounts (user_id, balance)
        SELECT id, round(credits_remaining * 100)::bigint FROM users;
      INSERT INTO credit_ledger (user_id, delta, balance_after, reason, reference, description)
        SELECT id, round(credits_remaining * 100)::bigint, round(credits_remaining * 100)::bigint,
          'opening_balance', id::text, 'Balance before the credit ledger'
        FROM users WHERE round(credits_remaining * 100) > 0;
      ALTER TABLE users DROP COLUMN credits_remaining;
    `,
};
