import type { Queryable } from "../../db/client";

const TODAY = "(now() AT TIME ZONE 'utc')::date";

/**
 * Counts `bytes` of an anonymous sender's analytics against their address's budget for the
 * UTC day, in one statement so parallel requests cannot pass it together. False when they do
 * not fit: the caller drops them, and they are counted as dropped instead (decision 052).
 */
export async function admitAnonymousAnalytics(
  db: Queryable,
  ip: string,
  items: number,
  bytes: number,
  bytesPerDay: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO analytics_anonymous_usage (ip, day, accepted_bytes)
       SELECT $1, ${TODAY}, $2::bigint WHERE $2::bigint <= $3::bigint
     ON CONFLICT (ip, day) DO UPDATE
       SET accepted_bytes = analytics_anonymous_usage.accepted_bytes + EXCLUDED.accepted_bytes
       WHERE analytics_anonymous_usage.accepted_bytes + EXCLUDED.accepted_bytes <= $3::bigint
     RETURNING accepted_bytes`,
    [ip, bytes, bytesPerDay],
  );
  if (rows.length === 1) return true;
  await db.query(
    `INSERT INTO analytics_anonymous_usage (ip, day, dropped_items, dropped_bytes)
       VALUES ($1, ${TODAY}, $2, $3)
     ON CONFLICT (ip, day) DO UPDATE
       SET dropped_items = analytics_anonymous_usage.dropped_items + EXCLUDED.dropped_items,
           dropped_bytes = analytics_anonymous_usage.dropped_bytes + EXCLUDED.dropped_bytes`,
    [ip, items, bytes],
  );
  return false;
}

export interface DroppedAnalytics {
  items: number;
  bytes: number;
  /** Addresses that went over their daily budget. */
  addresses: number;
}

/** What was dropped over the per-address cap since `since` (the admin overview's window). */
export async function countDroppedAnalytics(db: Queryable, since: Date): Promise<DroppedAnalytics> {
  const { rows } = await db.query<{ items: number; bytes: number | string; addresses: number }>(
    `SELECT coalesce(sum(dropped_items), 0)::int AS items,
            coalesce(sum(dropped_bytes), 0)::bigint AS bytes,
            count(*) FILTER (WHERE dropped_items > 0)::int AS addresses
       FROM analytics_anonymous_usage WHERE day >= $1::date`,
    [since.toISOString().slice(0, 10)],
  );
  const row = rows[0];
  return {
    items: row?.items ?? 0,
    bytes: Number(row?.bytes ?? 0),
    addresses: row?.addresses ?? 0,
  };
}
