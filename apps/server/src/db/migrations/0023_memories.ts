import type { Migration } from "../migrate";

/** memory: see the module. Placeholder until the module fills it in. */
export const memoriesMigration: Migration = {
  id: "0023_memories",
  sql: "SELECT 1",
};
