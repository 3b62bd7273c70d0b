import type { Migration } from "../migrate";

/**
 * sessions (decision 058): which tools each role of a session may use and when a
 * tool call waits for a person's approval. NULL: the defaults (ask before risky calls; the
 * read-only built-ins for every role; no MCP servers).
 */
export const sessionToolsMigration: Migration = {
  id: "0035_session_tools",
  sql: `
    ALTER TABLE sessions ADD COLUMN tools jsonb;
  `,
};
