import type { Migration } from "../migrate";

/** documents: see the module. Placeholder until the module fills it in. */
export const documentsMigration: Migration = {
  id: "0021_documents",
  sql: "SELECT 1",
};
