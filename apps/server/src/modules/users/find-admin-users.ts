import type { TAdminUser } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { ADMIN_USER_COLUMNS, type AdminUserRow, toAdminUsers } from "./admin-user-row";

/** Users by id as the admin area shows them, in the order of the ids given; unknown ids are skipped. */
export async function findAdminUsers(db: Queryable, ids: readonly string[]): Promise<TAdminUser[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<AdminUserRow>(
    `SELECT ${ADMIN_USER_COLUMNS} FROM users WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  const users = await toAdminUsers(db, rows);
  const byId = new Map(users.map((user) => [user.id, user]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function findAdminUser(db: Queryable, id: string): Promise<TAdminUser | null> {
  return (await findAdminUsers(db, [id]))[0] ?? null;
}
