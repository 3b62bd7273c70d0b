import type { Migration } from "../migrate";

/**
 * run_passages.url (decision 067): a page or search result a tool found is one of the run's
 * numbered sources beside the documents' passages; its address is kept with it (no document:
 * `document_id` is empty, `document_name` is the page's title).
 */
export const runSourceUrlsMigration: Migration = {
  id: "0042_run_source_urls",
  sql: `ALTER TABLE run_passages ADD COLUMN url text;`,
};
