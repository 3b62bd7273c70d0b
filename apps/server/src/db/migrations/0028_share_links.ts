import type { Migration } from "../migrate";

/** export: read-only share links (helper H-share fills this) */
export const shareLinksMigration: Migration = {
  id: "0028_share_links",
  sql: `
    SELECT 1;
  `,
};
