import type { TAdminAction } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

export interface AdminActor {
  id: string;
  email: string;
  /** The request that made the change, to find its log lines. */
  requestId: string;
}

export interface AdminActionEntry {
  action: TAdminAction;
  targetType: "user" | "agreement" | "model";
  targetId: string;
  before: unknown;
  after: unknown;
  reason?: string | null | undefined;
}

/**
 * Appends one entry to the audit log. Call it in the transaction that makes the change
 * where there is one, so a change and its entry commit together. The table refuses UPDATE,
 * DELETE and TRUNCATE (migration 0014), so the log only grows.
 */
export async function recordAdminAction(
  db: Queryable,
  actor: AdminActor,
  entry: AdminActionEntry,
): Promise<void> {
  await db.query(
    `INSERT INTO admin_audit_log
       (admin_id, admin_email, action, target_type, target_id, before, after, reason, request_id)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9)`,
    [
      actor.id,
      actor.email,
      entry.action,
      entry.targetType,
      entry.targetId,
      JSON.stringify(entry.before ?? null),
      JSON.stringify(entry.after ?? null),
      entry.reason ?? null,
      actor.requestId,
    ],
  );
}
