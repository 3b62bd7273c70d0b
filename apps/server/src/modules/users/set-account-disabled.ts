import type { Queryable } from "../../db/client";

export interface DisabledChange {
  before: string | null;
  after: string | null;
}

/**
 * Disables (or enables again) an account; null when there is no such user. Disabling an
 * account that already is keeps its first date. The caller ends its sign-ins: this only
 * decides whether new ones may start.
 */
export async function setAccountDisabled(
  db: Queryable,
  userId: string,
  disabled: boolean,
): Promise<DisabledChange | null> {
  const { rows } = await db.query<{ before: Date | null; after: Date | null }>(
    `UPDATE users u SET
       disabled_at = CASE WHEN $2 THEN COALESCE(old.disabled_at, now()) ELSE NULL END,
       updated_at = now()
     FROM (SELECT id, disabled_at FROM users WHERE id = $1 FOR UPDATE) old
     WHERE u.id = old.id
     RETURNING old.disabled_at AS before, u.disabled_at AS after`,
    [userId, disabled],
  );
  const row = rows[0];
  if (!row) return null;
  const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);
  return { before: iso(row.before), after: iso(row.after) };
}
