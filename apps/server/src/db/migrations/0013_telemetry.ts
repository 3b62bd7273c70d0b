import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const telemetryMigration: Migration = {
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
};
