import type { Migration } from "../migrate";

/**
 * approvals (decision 059): tool calls waiting for a person's decision, the tools a person
 * chose to always allow in a session, and the sessions nobody can answer in (started through
 * the public API or MCP), where a call that would need approval is denied at once.
 */
export const toolApprovalsMigration: Migration = {
  id: "0036_tool_approvals",
  sql: `
    CREATE TABLE tool_approvals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      run_id uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      call_id text,
      step_id text,
      role text,
      tool_call_id text NOT NULL,
      tool text NOT NULL,
      title text NOT NULL,
      server_name text,
      risk text NOT NULL CHECK (risk IN ('read', 'write', 'external', 'costly')),
      args jsonb NOT NULL,
      args_hash text NOT NULL,
      reason text NOT NULL CHECK (reason IN ('policy', 'untrusted')),
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'approved', 'denied', 'expired')),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      expires_at timestamptz NOT NULL,
      decided_by uuid REFERENCES users (id) ON DELETE SET NULL,
      decided_by_name text,
      decided_at timestamptz,
      decided_args jsonb,
      always boolean NOT NULL DEFAULT false,
      note text,
      used_at timestamptz
    );
    CREATE INDEX tool_approvals_session ON tool_approvals (session_id, created_at)
      WHERE status = 'pending';
    CREATE INDEX tool_approvals_call ON tool_approvals (run_id, tool, args_hash)
      WHERE used_at IS NULL;
    CREATE TABLE session_tool_allows (
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      tool text NOT NULL,
      allowed_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (session_id, tool)
    );
    CREATE TABLE unattended_sessions (
      session_id uuid PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
      via text NOT NULL CHECK (via IN ('api', 'mcp')),
      created_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
  `,
};
