import type { Migration } from "../migrate";

/**
 * Documents and memories in runs (docs/decisions/037-documents-and-memories-in-runs.md).
 * - run_passages: every passage a run gave its steps, numbered once per run ([n]). A copy of
 *   the passage as it was, so replay and export keep it after the document changes or goes.
 * - run_step_passages: which numbers each call (run_steps row) was given and which it cited.
 *   No key to run_steps: a call's row is written beside the call, its passages at its end.
 * - run_memories: the approved memories a run put into its plan's context, as they read then.
 */
export const runDocumentsMigration: Migration = {
  id: "0022_run_documents",
  sql: `
    CREATE TABLE run_passages (
      run_id uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      n integer NOT NULL CHECK (n >= 1),
      chunk_id text NOT NULL,
      document_id text NOT NULL,
      document_name text NOT NULL,
      page integer,
      section text,
      text text NOT NULL,
      PRIMARY KEY (run_id, n),
      UNIQUE (run_id, chunk_id)
    );

    CREATE TABLE run_step_passages (
      run_id uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      call_id uuid NOT NULL,
      n integer NOT NULL,
      cited boolean NOT NULL DEFAULT false,
      PRIMARY KEY (call_id, n)
    );
    CREATE INDEX run_step_passages_run ON run_step_passages (run_id);

    CREATE TABLE run_memories (
      run_id uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      position integer NOT NULL,
      memory_id text NOT NULL,
      text text NOT NULL,
      PRIMARY KEY (run_id, position)
    );
  `,
};
