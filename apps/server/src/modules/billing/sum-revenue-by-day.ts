import type { Queryable } from "../../db/client";

/** Cents of completed checkouts (Stripe or dev) per UTC day (YYYY-MM-DD) since `since`. */
export async function sumRevenueByDay(db: Queryable, since: Date): Promise<Map<string, number>> {
  const { rows } = await db.query<{ day: string; cents: number }>(
    `SELECT to_char(completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
       sum(amount_cents)::int AS cents
     FROM billing_checkouts WHERE status = 'completed' AND completed_at >= $1 GROUP BY 1`,
    [since],
  );
  return new Map(rows.map((row) => [row.day, row.cents]));
}
