import type { Migration } from "../migrate";

/**
 * documents: uploaded files (the bytes live in the document store, under `storage_key`, never
 * under the user's name), their extracted chunks with a full-text index, each user's storage
 * use (counted atomically against the tier's quota), and which sessions use which document
 * (docs/decisions/036-documents-storage-extraction-index.md).
 *
 * `embedding` is a plain real[] so the same schema works on PostgreSQL without pgvector;
 * where the `vector` extension is available the search casts it to `vector` for distance.
 */
export const documentsMigration: Migration = {
  id: "0021_documents",
  sql: `
    CREATE TABLE documents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      name text NOT NULL,
      kind text NOT NULL
        CHECK (kind IN ('pdf', 'docx', 'text', 'markdown', 'csv', 'json', 'code')),
      media_type text NOT NULL,
      size_bytes bigint NOT NULL CHECK (size_bytes > 0),
      store text NOT NULL CHECK (store IN ('local', 's3')),
      storage_key text NOT NULL,
      pages integer,
      status text NOT NULL DEFAULT 'processing'
        CHECK (status IN ('processing', 'ready', 'failed')),
      failure_reason text,
      chunk_count integer NOT NULL DEFAULT 0,
      embedding_model text,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX documents_user ON documents (user_id, created_at DESC);
    CREATE INDEX documents_processing ON documents (updated_at) WHERE status = 'processing';
    CREATE TABLE document_chunks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
      user_id uuid NOT NULL,
      ordinal integer NOT NULL,
      page integer,
      section text,
      text text NOT NULL,
      search tsvector GENERATED ALWAYS AS (
        setweight(to_tsvector('english', coalesce(section, '')), 'B')
          || to_tsvector('english', text)
      ) STORED,
      embedding real[],
      UNIQUE (document_id, ordinal)
    );
    CREATE INDEX document_chunks_search ON document_chunks USING gin (search);
    CREATE INDEX document_chunks_user ON document_chunks (user_id);
    CREATE TABLE document_usage (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      used_bytes bigint NOT NULL DEFAULT 0 CHECK (used_bytes >= 0)
    );
    CREATE TABLE session_documents (
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      document_id uuid NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
      attached_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      PRIMARY KEY (session_id, document_id)
    );
    CREATE INDEX session_documents_document ON session_documents (document_id);
  `,
};
