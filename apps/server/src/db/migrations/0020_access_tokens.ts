import type { Migration } from "../migrate";

/** access-tokens: see the module. Placeholder until the module fills it in. */
export const accessTokensMigration: Migration = {
  id: "0020_access_tokens",
  sql: "SELECT 1",
};
