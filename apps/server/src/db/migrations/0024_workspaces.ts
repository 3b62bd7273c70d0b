import type { Migration } from "../migrate";

/**
 * workspaces: who owns what (decision 040). Every user has a personal workspace whose id is
 * the user's id, so everything stored before workspaces existed already names its personal
 * workspace, and a personal workspace's credit account is the user's account as it was.
 * Team workspaces have their own ids, members with roles, invitations and an audit log.
 *
 * - A trigger on users creates the personal workspace and its owner membership, so every
 *   way an account is created gets one.
 * - Sessions, documents and memories gain `workspace_id`; a trigger fills it with the
 *   creator's personal workspace when an insert does not name one, so existing writers keep
 *   working and a team resource is one that names its team.
 * - The credits tables' `user_id` is the paying account, which is a workspace: accounts and
 *   holds reference workspaces; the ledger and usage rows reference nothing, so they outlive
 *   a deleted account, anonymised (the id names no one any more).
 */
export const workspacesMigration: Migration = {
  id: "0024_workspaces",
  sql: `
    CREATE TABLE workspaces (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      kind text NOT NULL CHECK (kind IN ('personal', 'team')),
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE TABLE workspace_members (
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (workspace_id, user_id)
    );
    CREATE INDEX workspace_members_user ON workspace_members (user_id);
    CREATE TABLE workspace_invitations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
      token_hash text NOT NULL UNIQUE,
      invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz,
      accepted_by uuid REFERENCES users (id) ON DELETE SET NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX workspace_invitations_workspace ON workspace_invitations (workspace_id, created_at DESC);
    CREATE TABLE workspace_audit_log (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      actor_id uuid,
      action text NOT NULL,
      target text NOT NULL DEFAULT '',
      details jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX workspace_audit_log_workspace ON workspace_audit_log (workspace_id, id DESC);

    -- Every user so far gets a personal workspace with the user's id.
    INSERT INTO workspaces (id, kind, name, created_by, created_at)
      SELECT id, 'personal', 'Personal', id, created_at FROM users;
    INSERT INTO workspace_members (workspace_id, user_id, role, created_at)
      SELECT id, id, 'owner', created_at FROM users;
    CREATE FUNCTION users_personal_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO workspaces (id, kind, name, created_by) VALUES (NEW.id, 'personal', 'Personal', NEW.id);
      INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (NEW.id, NEW.id, 'owner');
      RETURN NEW;
    END
    $$;
    CREATE TRIGGER users_personal_workspace AFTER INSERT ON users
      FOR EACH ROW EXECUTE FUNCTION users_personal_workspace();

    -- Resources name their workspace; an insert without one is the creator's personal one.
    CREATE FUNCTION default_personal_workspace() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.workspace_id IS NULL THEN NEW.workspace_id := NEW.user_id; END IF;
      RETURN NEW;
    END
    $$;
    ALTER TABLE sessions ADD COLUMN workspace_id uuid REFERENCES workspaces (id) ON DELETE CASCADE;
    UPDATE sessions SET workspace_id = user_id;
    ALTER TABLE sessions ALTER COLUMN workspace_id SET NOT NULL;
    CREATE INDEX sessions_workspace_created ON sessions (workspace_id, created_at DESC, id);
    CREATE TRIGGER sessions_workspace BEFORE INSERT ON sessions
      FOR EACH ROW EXECUTE FUNCTION default_personal_workspace();
    ALTER TABLE documents ADD COLUMN workspace_id uuid REFERENCES workspaces (id) ON DELETE CASCADE;
    UPDATE documents SET workspace_id = user_id;
    ALTER TABLE documents ALTER COLUMN workspace_id SET NOT NULL;
    CREATE INDEX documents_workspace ON documents (workspace_id, created_at DESC);
    CREATE TRIGGER documents_workspace BEFORE INSERT ON documents
      FOR EACH ROW EXECUTE FUNCTION default_personal_workspace();
    ALTER TABLE memories ADD COLUMN workspace_id uuid REFERENCES workspaces (id) ON DELETE CASCADE;
    UPDATE memories SET workspace_id = user_id;
    ALTER TABLE memories ALTER COLUMN workspace_id SET NOT NULL;
    CREATE INDEX memories_workspace ON memories (workspace_id, status, updated_at DESC);
    CREATE TRIGGER memories_workspace BEFORE INSERT ON memories
      FOR EACH ROW EXECUTE FUNCTION default_personal_workspace();

    -- credits: the paying account is a workspace (a personal one has its user's id).
    ALTER TABLE credit_accounts DROP CONSTRAINT credit_accounts_user_id_fkey;
    ALTER TABLE credit_accounts ADD CONSTRAINT credit_accounts_workspace_fkey
      FOREIGN KEY (user_id) REFERENCES workspaces (id) ON DELETE CASCADE;
    ALTER TABLE credit_holds DROP CONSTRAINT credit_holds_user_id_fkey;
    ALTER TABLE credit_holds ADD CONSTRAINT credit_holds_workspace_fkey
      FOREIGN KEY (user_id) REFERENCES workspaces (id) ON DELETE CASCADE;
    ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_user_id_fkey;
    ALTER TABLE usage_events DROP CONSTRAINT usage_events_user_id_fkey;
  `,
};
