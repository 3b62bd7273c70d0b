import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const providerKeyTestsMigration: Migration = {
  id: "0017_provider_key_tests",
  sql: `
      -- users: the last test of a stored provider key, what it found and when
      -- (docs/decisions/029-provider-key-routing.md).
      ALTER TABLE user_api_keys ADD COLUMN last_test_result text
        CHECK (last_test_result IN ('valid', 'refused', 'unreachable', 'rate_limited', 'failed'));
      ALTER TABLE user_api_keys ADD COLUMN last_test_message text;
      ALTER TABLE user_api_keys ADD COLUMN last_tested_at timestamptz;
    `,
};
