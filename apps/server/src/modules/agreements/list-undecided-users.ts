import type { Queryable } from "../../db/client";

export interface UndecidedUsers {
  version: string;
  userIds: string[];
  total: number;
}

/**
 * Who has neither accepted nor declined a version (the current one by default), newest
 * accounts first. It reads user ids from the users table: the one question that needs
 * both tables, answered in one statement instead of by pulling every id across.
 */
export async function listUndecidedUsers(
  db: Queryable,
  page: { page: number; pageSize: number; agreementId?: string | undefined },
): Promise<UndecidedUsers | null> {
  const { rows: versions } = await db.query<{ id: string; version: string }>(
    `SELECT id, version FROM agreements
     WHERE ($1::uuid IS NULL OR id = $1) ORDER BY seq DESC LIMIT 1`,
    [page.agreementId ?? null],
  );
  const agreement = versions[0];
  if (!agreement) return null;
  const undecided = `FROM users u WHERE NOT EXISTS
      (SELECT 1 FROM agreement_acceptances x WHERE x.user_id = u.id AND x.agreement_id = $1)
    AND NOT EXISTS
      (SELECT 1 FROM agreement_declines d WHERE d.user_id = u.id AND d.agreement_id = $1)`;
  const [ids, total] = await Promise.all([
    db.query<{ id: string }>(
      `SELECT u.id ${undecided} ORDER BY u.created_at DESC, u.id LIMIT $2 OFFSET $3`,
      [agreement.id, page.pageSize, (page.page - 1) * page.pageSize],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total ${undecided}`, [agreement.id]),
  ]);
  return {
    version: agreement.version,
    userIds: ids.rows.map((row) => row.id),
    total: total.rows[0]?.total ?? 0,
  };
}
