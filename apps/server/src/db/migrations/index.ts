import type { Migration } from "../migrate";
import { accessTokensMigration } from "./0020_access_tokens";
import { documentsMigration } from "./0021_documents";
import { runDocumentsMigration } from "./0022_run_documents";
import { memoriesMigration } from "./0023_memories";
import { workspacesMigration } from "./0024_workspaces";
import { pooledCreditsMigration } from "./0025_pooled_credits";
import { templatesMigration } from "./0026_templates";
import { sessionImportsMigration } from "./0027_session_imports";
import { shareLinksMigration } from "./0028_share_links";
import { durableRunsMigration } from "./0029_durable_runs";
import { spendingLimitsMigration } from "./0030_spending_limits";
import { stepLimitsMigration } from "./0031_step_limits";

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
  {
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
  },
  {
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
  },
  {
    id: "0008_sessions",
    sql: `
      -- sessions: a user's multi-agent conversations and their messages.
      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        title text NOT NULL,
        description text NOT NULL DEFAULT '',
        coordinator_model text NOT NULL,
        manual_agent_selection boolean NOT NULL DEFAULT false,
        agent_preferences jsonb,
        status text NOT NULL DEFAULT 'active'
          CHECK (status IN ('active', 'paused', 'completed', 'archived')),
        budget_credits numeric(12, 2) CHECK (budget_credits IS NULL OR budget_credits > 0),
        spent_credits numeric(12, 2) NOT NULL DEFAULT 0 CHECK (spent_credits >= 0),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX sessions_user_created ON sessions (user_id, created_at DESC, id);
      CREATE TABLE session_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        run_id uuid,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX session_messages_session ON session_messages (session_id, created_at, id);
    `,
  },
  {
    id: "0009_orchestration",
    sql: `
      -- orchestration: runs, their model calls (steps) and their events with per-session seq.
      CREATE TABLE runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        message_id uuid NOT NULL,
        result_message_id uuid,
        status text NOT NULL DEFAULT 'queued' CHECK (status IN
          ('queued', 'planning', 'running', 'reviewing', 'synthesizing', 'completed', 'failed', 'cancelled')),
        mode text NOT NULL CHECK (mode IN ('automatic', 'manual')),
        coordinator_model text NOT NULL,
        plan jsonb,
        critic_score numeric(4, 1),
        total_credits numeric(12, 2) NOT NULL DEFAULT 0,
        input_tokens integer NOT NULL DEFAULT 0,
        output_tokens integer NOT NULL DEFAULT 0,
        error_code text,
        error_message text,
        first_seq bigint,
        instance_id text NOT NULL,
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        finished_at timestamptz
      );
      CREATE INDEX runs_session ON runs (session_id, created_at);
      -- One run at a time per session, whichever instance starts it.
      CREATE UNIQUE INDEX runs_one_active_per_session ON runs (session_id)
        WHERE status IN ('queued', 'planning', 'running', 'reviewing', 'synthesizing');
      CREATE TABLE run_steps (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        run_id uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('plan', 'agent', 'critic', 'revision', 'synthesis')),
        step_id text,
        role text,
        model text NOT NULL,
        model_name text NOT NULL,
        provider text,
        simulated boolean,
        key_source text,
        status text NOT NULL DEFAULT 'running'
          CHECK (status IN ('running', 'completed', 'failed', 'stopped')),
        stopped boolean NOT NULL DEFAULT false,
        hold_id uuid,
        reserved_credits numeric(12, 2) NOT NULL DEFAULT 0,
        credits numeric(12, 2) NOT NULL DEFAULT 0,
        input_tokens integer NOT NULL DEFAULT 0,
        output_tokens integer NOT NULL DEFAULT 0,
        latency_ms integer,
        ttft_ms integer,
        output text NOT NULL DEFAULT '',
        error_code text,
        error_message text,
        started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        finished_at timestamptz
      );
      CREATE INDEX run_steps_run ON run_steps (run_id, started_at);
      CREATE TABLE run_event_counters (
        session_id uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        last_seq bigint NOT NULL
      );
      CREATE TABLE run_events (
        session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        run_id uuid NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
    `,
  },
  {
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
  },
  {
    id: "0011_cochat",
    sql: `
      -- cochat: single-model conversations. The id is the client's session_id
      -- (cochat-{timestamp} by default), unique per user.
      CREATE TABLE cochat_conversations (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        id text NOT NULL,
        title text NOT NULL,
        model text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (user_id, id)
      );
      CREATE INDEX cochat_conversations_recent ON cochat_conversations (user_id, updated_at DESC);
      CREATE TABLE cochat_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        conversation_id text NOT NULL,
        role text NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        model text,
        model_name text,
        provider text,
        simulated boolean,
        key_source text,
        status text NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'stopped', 'failed')),
        error_code text,
        error_message text,
        input_tokens integer,
        output_tokens integer,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (user_id, conversation_id)
          REFERENCES cochat_conversations (user_id, id) ON DELETE CASCADE
      );
      CREATE INDEX cochat_messages_conversation
        ON cochat_messages (user_id, conversation_id, created_at, id);
    `,
  },
  {
    id: "0012_credit_amounts_in_hundredths",
    sql: `
      -- sessions, orchestration: credit amounts become integer hundredths (bigint), as in
      -- credits (docs/decisions/014-run-lifecycle-and-money.md); stored values are kept.
      ALTER TABLE sessions ALTER COLUMN budget_credits TYPE bigint
        USING round(budget_credits * 100)::bigint;
      ALTER TABLE sessions ALTER COLUMN spent_credits DROP DEFAULT;
      ALTER TABLE sessions ALTER COLUMN spent_credits TYPE bigint
        USING round(spent_credits * 100)::bigint;
      ALTER TABLE sessions ALTER COLUMN spent_credits SET DEFAULT 0;
      ALTER TABLE runs ALTER COLUMN total_credits DROP DEFAULT;
      ALTER TABLE runs ALTER COLUMN total_credits TYPE bigint
        USING round(total_credits * 100)::bigint;
      ALTER TABLE runs ALTER COLUMN total_credits SET DEFAULT 0;
      ALTER TABLE run_steps ALTER COLUMN reserved_credits DROP DEFAULT;
      ALTER TABLE run_steps ALTER COLUMN reserved_credits TYPE bigint
        USING round(reserved_credits * 100)::bigint;
      ALTER TABLE run_steps ALTER COLUMN reserved_credits SET DEFAULT 0;
      ALTER TABLE run_steps ALTER COLUMN credits DROP DEFAULT;
      ALTER TABLE run_steps ALTER COLUMN credits TYPE bigint USING round(credits * 100)::bigint;
      ALTER TABLE run_steps ALTER COLUMN credits SET DEFAULT 0;
    `,
  },
  {
    id: "0013_telemetry",
    sql: `
      -- telemetry: client logs and warn/error server lines (one store, so a request's trail
      -- is one query), analytics, and each user's opt-out (docs/decisions/021-telemetry.md).
      -- No foreign keys to users: rows are written in large batches off the request path, and
      -- one deleted user must not fail a batch; the retention sweeper removes old rows.
      CREATE TABLE telemetry_logs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source text NOT NULL CHECK (source IN ('client', 'server')),
        level text NOT NULL CHECK (level IN ('debug', 'info', 'warn', 'error')),
        message text NOT NULL,
        data jsonb,
        url text,
        user_agent text,
        user_id uuid,
        session_id text,
        request_id text,
        ip text,
        logged_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX telemetry_logs_received ON telemetry_logs (received_at DESC, id DESC);
      CREATE INDEX telemetry_logs_request ON telemetry_logs (request_id)
        WHERE request_id IS NOT NULL;
      CREATE INDEX telemetry_logs_user ON telemetry_logs (user_id, received_at DESC)
        WHERE user_id IS NOT NULL;
      CREATE INDEX telemetry_logs_session ON telemetry_logs (session_id, received_at DESC)
        WHERE session_id IS NOT NULL;
      CREATE TABLE analytics_page_views (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        analytics_session_id text NOT NULL,
        user_id uuid,
        page_path text NOT NULL,
        page_title text NOT NULL,
        referrer text NOT NULL,
        utm_source text,
        utm_medium text,
        utm_campaign text,
        utm_term text,
        utm_content text,
        device_info jsonb NOT NULL,
        screen_info jsonb NOT NULL,
        ip text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX analytics_page_views_created ON analytics_page_views (created_at);
      CREATE INDEX analytics_page_views_session ON analytics_page_views (analytics_session_id);
      CREATE TABLE analytics_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        analytics_session_id text NOT NULL,
        user_id uuid,
        category text NOT NULL,
        action text NOT NULL,
        label text,
        value double precision,
        properties jsonb,
        ip text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX analytics_events_created ON analytics_events (created_at);
      CREATE INDEX analytics_events_category ON analytics_events (category, action, created_at);
      CREATE TABLE analytics_performance (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        analytics_session_id text NOT NULL,
        user_id uuid,
        page_path text NOT NULL,
        lcp double precision,
        fid double precision,
        inp double precision,
        cls double precision,
        ttfb double precision,
        fcp double precision,
        dom_load_time double precision,
        page_load_time double precision,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX analytics_performance_created ON analytics_performance (created_at);
      CREATE TABLE analytics_session_ends (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        analytics_session_id text NOT NULL,
        user_id uuid,
        duration_seconds integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX analytics_session_ends_created ON analytics_session_ends (created_at);
      CREATE TABLE telemetry_preferences (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        analytics_opt_out boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
    `,
  },
  {
    id: "0014_admin",
    sql: `
      -- users: an administrator can disable an account; a disabled account cannot sign in.
      ALTER TABLE users ADD COLUMN disabled_at timestamptz;
      -- models: the admin area's changes to the catalogue (on/off, price), read by every
      -- instance without a restart (docs/decisions/022-admin-console.md).
      CREATE TABLE model_overrides (
        model_id text PRIMARY KEY,
        enabled boolean NOT NULL DEFAULT true,
        input_per_1k numeric,
        output_per_1k numeric,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      -- admin: every administrator action, append-only like the credit ledger. No foreign
      -- keys: the entry outlives the accounts it names (the email is kept as it was).
      CREATE TABLE admin_audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        admin_id uuid NOT NULL,
        admin_email text NOT NULL,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        before jsonb,
        after jsonb,
        reason text,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX admin_audit_log_target ON admin_audit_log (target_type, target_id, id DESC);
      CREATE FUNCTION admin_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'admin_audit_log is append-only';
      END
      $$;
      CREATE TRIGGER admin_audit_log_no_change BEFORE UPDATE OR DELETE ON admin_audit_log
        FOR EACH ROW EXECUTE FUNCTION admin_audit_log_append_only();
      CREATE TRIGGER admin_audit_log_no_truncate BEFORE TRUNCATE ON admin_audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_log_append_only();
    `,
  },
  {
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
  },
  {
    id: "0016_identity_provider_uid",
    sql: `
      -- users: the identity provider's user id (Firebase uid, spec §3) of the latest popup
      -- sign-in (docs/decisions/024-firebase-sign-in.md).
      ALTER TABLE users ADD COLUMN identity_uid text;
    `,
  },
  {
    id: "0018_step_versions",
    sql: `
      -- orchestration: a plan step re-run on another model or temperature is a new step row
      -- of the same run, numbered (docs/decisions/031-chat-actions-and-step-reruns.md).
      ALTER TABLE run_steps ADD COLUMN version integer NOT NULL DEFAULT 1;
      ALTER TABLE run_steps ADD COLUMN rerun_of uuid;
      ALTER TABLE run_steps ADD COLUMN temperature real;
      ALTER TABLE run_steps ADD COLUMN critic_score numeric(4, 1);
      -- One re-run at a time per run, whichever instance starts it.
      CREATE UNIQUE INDEX run_steps_one_rerun_per_run ON run_steps (run_id)
        WHERE status = 'running' AND rerun_of IS NOT NULL AND kind = 'agent';
    `,
  },
  {
    id: "0017_provider_key_tests",
    sql: `
      -- users: the last test of a stored provider key, what it found and when
      -- (docs/decisions/029-provider-key-routing.md).
      ALTER TABLE user_api_keys ADD COLUMN last_test_result text
        CHECK (last_test_result IN ('valid', 'refused', 'unreachable', 'rate_limited', 'failed'));
      ALTER TABLE user_api_keys ADD COLUMN last_test_message text;
      ALTER TABLE user_api_keys ADD COLUMN last_tested_at timestamptz;
    `,
  },
  {
    id: "0019_synthesis_versions",
    sql: `
      -- orchestration: a run's answer re-written with a step's re-run version is a synthesis
      -- row linked to that re-run; it is one piece of work on the run like the re-run itself
      -- (docs/decisions/031-chat-actions-and-step-reruns.md).
      DROP INDEX run_steps_one_rerun_per_run;
      CREATE UNIQUE INDEX run_steps_one_rerun_per_run ON run_steps (run_id)
        WHERE status = 'running' AND rerun_of IS NOT NULL AND kind IN ('agent', 'synthesis');
    `,
  },
  // From here on, one file per migration (several modules grow at once).
  accessTokensMigration,
  documentsMigration,
  runDocumentsMigration,
  memoriesMigration,
  workspacesMigration,
  pooledCreditsMigration,
  templatesMigration,
  sessionImportsMigration,
  shareLinksMigration,
  durableRunsMigration,
  spendingLimitsMigration,
  stepLimitsMigration,
];
