import type { TUserProfile } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { normalizeEmail } from "./create-user";
import { toUserProfileOf, USER_COLUMNS, type UserRow } from "./user-row";

export async function findUserById(db: Queryable, id: string): Promise<TUserProfile | null> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ? toUserProfileOf(db, rows[0]) : null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<TUserProfile | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = $1`,
    [normalizeEmail(email)],
  );
  return rows[0] ? toUserProfileOf(db, rows[0]) : null;
}

/**
 * The subscription tier of the user whose id is the SQL expression `userIdSql`, as a scalar
 * subquery: for hot paths that need only the tier beside their own rows in one statement
 * (a run's memory check, decision 086). Null when there is no such user.
 */
export function subscriptionTierSubquery(userIdSql: string): string {
  return `(SELECT subscription_tier FROM users WHERE id = ${userIdSql})`;
}
