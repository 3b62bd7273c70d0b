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
