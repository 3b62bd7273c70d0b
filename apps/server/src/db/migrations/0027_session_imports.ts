import type { Migration } from "../migrate";

/** export: imported sessions and runs (helper H-export fills this) */
export const sessionImportsMigration: Migration = {
  id: "0027_session_imports",
  sql: `
    SELECT 1;
  `,
};
