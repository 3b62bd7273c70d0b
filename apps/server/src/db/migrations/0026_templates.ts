import type { Migration } from "../migrate";

/** workspaces: saved session setups (helper H-tpl fills this) */
export const templatesMigration: Migration = {
  id: "0026_templates",
  sql: `
    SELECT 1;
  `,
};
