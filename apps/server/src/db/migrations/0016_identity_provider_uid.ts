import type { Migration } from "../migrate";

// The SQL is kept byte for byte as it was first applied (decision 055): its comment says
// which module owns the tables.
export const identityProviderUidMigration: Migration = {
  id: "0016_identity_provider_uid",
  sql: `
      -- users: the identity provider's user id (Firebase uid, the data model) of the latest popup
      -- sign-in (docs/decisions/024-firebase-sign-in.md).
      ALTER TABLE users ADD COLUMN identity_uid text;
    `,
};
