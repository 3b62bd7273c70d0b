import type { Migration } from "../migrate";

/** documents (attachments, retrieval, citations): see the module. Placeholder until the module fills it in. */
export const runDocumentsMigration: Migration = {
  id: "0022_run_documents",
  sql: "SELECT 1",
};
