import type { Migration } from "../migrate";

/**
 * orchestration (decision 070): a run forked from a step of another run of the same message
 * says where it came from (`fork`), and each step it kept from that run says which call it
 * copied (`copied_from`): such a row was not called and is never charged.
 */
export const runForksMigration: Migration = {
  id: "0047_run_forks",
  sql: `
    ALTER TABLE runs ADD COLUMN fork jsonb;
    ALTER TABLE run_steps ADD COLUMN copied_from uuid;
  `,
};
