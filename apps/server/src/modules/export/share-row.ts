import { sharePagePath, type TShareLink, type TShareStatus } from "@cohort/contracts";
import { isoTimestamp, isoTimestampOrNull } from "../../db/client";

/** The share_links table as this module's queries return it (creator's name joined in). */
export interface ShareRow {
  id: string;
  token: string;
  session_id: string;
  run_id: string | null;
  created_by: string | null;
  show_costs: boolean;
  show_names: boolean;
  live: boolean;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  created_at: Date | string;
  view_count: number;
  last_viewed_at: Date | string | null;
  /** Whether the creator is still a member of the session's workspace (can read it). */
  creator_can_read: boolean;
}

/**
 * The creator can still read the session: a member (any role) of its workspace. A deleted
 * account leaves `created_by` null, so its links never work again (decision 051).
 */
const CREATOR_CAN_READ = `EXISTS (SELECT 1 FROM sessions s
  JOIN workspace_members m ON m.workspace_id = s.workspace_id AND m.user_id = share_links.created_by
  WHERE s.id = share_links.session_id)`;

export const SHARE_COLUMNS = `id, token, session_id, run_id, created_by, show_costs, show_names, live, expires_at, revoked_at, created_at, view_count, last_viewed_at, ${CREATOR_CAN_READ} AS creator_can_read`;

/**
 * A link works while it is neither revoked nor past its expiry (the database's clock) and
 * its creator can still read the session: a link never shows more than its author may see.
 */
export const SHARE_WORKS = `revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AND ${CREATOR_CAN_READ}`;

/** The link's address in the web app. */
export const shareUrl = (publicUrl: string, token: string) => `${publicUrl}${sharePagePath(token)}`;

function statusOf(row: ShareRow, now: number): TShareStatus {
  if (row.revoked_at !== null) return "revoked";
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now) return "expired";
  if (!row.creator_can_read) return "creator_left";
  return "active";
}

export function toShareLink(
  row: ShareRow,
  publicUrl: string,
  createdByName: string | null,
  now = Date.now(),
): TShareLink {
  return {
    id: row.id,
    session_id: row.session_id,
    run_id: row.run_id,
    token: row.token,
    url: shareUrl(publicUrl, row.token),
    show_costs: row.show_costs,
    show_names: row.show_names,
    live: row.live,
    status: statusOf(row, now),
    expires_at: isoTimestampOrNull(row.expires_at),
    revoked_at: isoTimestampOrNull(row.revoked_at),
    created_at: isoTimestamp(row.created_at),
    created_by: createdByName,
    view_count: Number(row.view_count),
    last_viewed_at: isoTimestampOrNull(row.last_viewed_at),
  };
}
