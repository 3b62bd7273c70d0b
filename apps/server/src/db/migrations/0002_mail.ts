import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const mailMigration: Migration = {
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
};
