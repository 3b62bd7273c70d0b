import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const billingMigration: Migration = {
  id: "0007_billing",
  sql: `
      -- billing: Stripe customers, checkouts (Stripe or dev), subscriptions, applied events.
      CREATE TABLE billing_customers (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        stripe_customer_id text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE billing_checkouts (
        id text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        mode text NOT NULL CHECK (mode IN ('stripe', 'dev')),
        kind text NOT NULL CHECK (kind IN ('subscription', 'credits')),
        tier text,
        billing_period text CHECK (billing_period IN ('monthly', 'yearly')),
        package_id text,
        credits integer NOT NULL CHECK (credits > 0),
        amount_cents integer NOT NULL CHECK (amount_cents > 0),
        status text NOT NULL DEFAULT 'open'
          CHECK (status IN ('open', 'completed', 'canceled', 'failed')),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        completed_at timestamptz
      );
      CREATE INDEX billing_checkouts_user ON billing_checkouts (user_id, created_at DESC);
      CREATE TABLE billing_subscriptions (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        stripe_subscription_id text NOT NULL UNIQUE,
        tier text NOT NULL CHECK (tier IN ('starter', 'pro', 'pro+', 'enterprise')),
        billing_period text NOT NULL CHECK (billing_period IN ('monthly', 'yearly')),
        status text NOT NULL,
        current_period_end timestamptz,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        state_at bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE billing_events (
        id text PRIMARY KEY,
        type text NOT NULL,
        created bigint NOT NULL,
        outcome text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      );
    `,
};
