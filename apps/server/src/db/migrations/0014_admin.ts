import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const adminMigration: Migration = {
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
};
