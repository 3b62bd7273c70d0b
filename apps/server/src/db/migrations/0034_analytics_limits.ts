import type { Migration } from "../migrate";

/**
 * telemetry (decision 052): the data model's analytics payloads carry no session id (and performance
 * data no page path), so those columns take none; and what anonymous visitors may send is
 * counted per (truncated) address per UTC day, with what was dropped over the cap kept for
 * the admin overview.
 */
export const analyticsLimitsMigration: Migration = {
  id: "0034_analytics_limits",
  sql: `
    ALTER TABLE analytics_page_views ALTER COLUMN analytics_session_id DROP NOT NULL;
    ALTER TABLE analytics_performance ALTER COLUMN analytics_session_id DROP NOT NULL;
    ALTER TABLE analytics_performance ALTER COLUMN page_path DROP NOT NULL;
    ALTER TABLE analytics_session_ends ALTER COLUMN analytics_session_id DROP NOT NULL;
    CREATE TABLE analytics_anonymous_usage (
      ip text NOT NULL,
      day date NOT NULL,
      accepted_bytes bigint NOT NULL DEFAULT 0,
      dropped_items integer NOT NULL DEFAULT 0,
      dropped_bytes bigint NOT NULL DEFAULT 0,
      PRIMARY KEY (ip, day)
    );
    CREATE INDEX analytics_anonymous_usage_day ON analytics_anonymous_usage (day);
  `,
};
