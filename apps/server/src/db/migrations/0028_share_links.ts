import type { Migration } from "../migrate";

/**
 * export: read-only share links to a session or one of its runs (decision 040).
 *
 * - The token itself is stored, not a hash: owners copy a link again from the list days
 *   later, and a link only grants reading what the database holder can read anyway. Its
 *   32 random bytes make it unguessable; the unique index is the lookup.
 * - `run_id` has no foreign key: a run belongs to the session (cascade through sessions),
 *   and a share of a run that is gone answers the same 404 as any other dead link.
 * - Revoking sets `revoked_at` (the row stays, so the list shows what was shared and how
 *   often it was opened); deleting the session deletes its links.
 */
export const shareLinksMigration: Migration = {
  id: "0028_share_links",
  sql: `
    CREATE TABLE share_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      token text NOT NULL UNIQUE,
      session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      run_id uuid,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      show_costs boolean NOT NULL DEFAULT false,
      show_names boolean NOT NULL DEFAULT false,
      live boolean NOT NULL DEFAULT false,
      expires_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
      view_count integer NOT NULL DEFAULT 0,
      last_viewed_at timestamptz
    );
    CREATE INDEX share_links_session ON share_links (session_id, created_at DESC);
  `,
};
