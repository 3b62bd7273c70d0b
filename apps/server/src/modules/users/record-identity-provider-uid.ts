import type { TUserProfile } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { toUserProfileOf, USER_COLUMNS, type UserRow } from "./user-row";

/**
 * Keeps the identity provider's user id (Firebase `uid`, the data model) of the user's latest popup
 * sign-in or link, which the profile shows beside displayName and photoURL.
 */
export async function recordIdentityProviderUid(
  db: Queryable,
  userId: string,
  uid: string,
): Promise<TUserProfile> {
  const { rows } = await db.query<UserRow>(
    `UPDATE users SET identity_uid = $2 WHERE id = $1 RETURNING ${USER_COLUMNS}`,
    [userId, uid],
  );
  const row = rows[0];
  if (!row) throw new AppError("not_found", 404, "Account not found.");
  return toUserProfileOf(db, row);
}
