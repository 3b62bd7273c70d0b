import type { Queryable } from "../../db/client";

/** One line of a workspace's audit log. */
export interface WorkspaceAuditEntry {
  workspaceId: string;
  /** Who did it; null for the system (a sweep, a webhook). */
  actorId: string | null;
  /** Dotted verb, e.g. `member.role_changed`, `credits.purchased`. */
  action: string;
  /** What it was done to (a user id, an email, a template id); empty when the workspace itself. */
  target?: string;
  details?: Record<string, unknown>;
}

/**
 * Appends to the workspace's audit log. Takes any `Queryable` so callers write the line in
 * the same transaction as the change it records: a change without its line, or a line for a
 * change that rolled back, cannot happen.
 */
export async function recordWorkspaceAudit(
  db: Queryable,
  entry: WorkspaceAuditEntry,
): Promise<void> {
  await db.query(
    `INSERT INTO workspace_audit_log (workspace_id, actor_id, action, target, details)
     VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [
      entry.workspaceId,
      entry.actorId,
      entry.action,
      entry.target ?? "",
      JSON.stringify(entry.details ?? {}),
    ],
  );
}
