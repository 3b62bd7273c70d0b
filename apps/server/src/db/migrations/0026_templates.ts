import type { Migration } from "../migrate";

/**
 * templates: saved session setups (decision 042, "workspace saving"). A template belongs to a
 * workspace and goes with it; it outlives its creator's account (created_by becomes null)
 * when it lives in a team workspace. `setup` is the contracts' ZTemplateSetup (coordinator,
 * team with models and instructions, budget, document ids), validated on the way in and out.
 */
export const templatesMigration: Migration = {
  id: "0026_templates",
  sql: `
    CREATE TABLE session_templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
      description text NOT NULL DEFAULT '',
      shared boolean NOT NULL DEFAULT false,
      setup jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX session_templates_workspace ON session_templates (workspace_id, name, id);
    CREATE INDEX session_templates_creator ON session_templates (created_by);
  `,
};
