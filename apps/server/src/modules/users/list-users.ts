import type { TAdminUsersQuery, TAdminUsersResponse } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { ADMIN_USER_COLUMNS, type AdminUserRow, toAdminUsers } from "./admin-user-row";

const ORDER: Record<TAdminUsersQuery["sort"], string> = {
  newest: "created_at DESC, id",
  oldest: "created_at ASC, id",
  email: "lower(email) ASC, id",
};

/** One page of users, sorted, optionally filtered by part of the email or name. */
export async function listUsers(
  db: Queryable,
  query: TAdminUsersQuery,
): Promise<TAdminUsersResponse> {
  const pattern = query.q ? `%${query.q.toLowerCase().replace(/[\\%_]/g, "\\$&")}%` : null;
  const where = `WHERE $1::text IS NULL OR lower(email) LIKE $1
    OR lower(first_name || ' ' || last_name) LIKE $1 OR lower(COALESCE(display_name, '')) LIKE $1`;
  const [page, total] = await Promise.all([
    db.query<AdminUserRow>(
      `SELECT ${ADMIN_USER_COLUMNS} FROM users ${where}
       ORDER BY ${ORDER[query.sort]} LIMIT $2 OFFSET $3`,
      [pattern, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM users ${where}`, [pattern]),
  ]);
  return {
    users: await toAdminUsers(db, page.rows),
    total: total.rows[0]?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}
