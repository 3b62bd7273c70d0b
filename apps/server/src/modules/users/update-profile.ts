import { AUTH_MESSAGES, ERROR_CODES, type TUserProfile } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { toUserProfileOf, USER_COLUMNS, type UserRow } from "./user-row";

export interface ProfileChanges {
  firstName?: string | undefined;
  lastName?: string | undefined;
  displayName?: string | undefined;
  /** null removes the photo; undefined leaves it as it is. */
  photoUrl?: string | null | undefined;
}

/** Changes only the fields given; the others keep their values. */
export async function updateProfile(
  db: Queryable,
  userId: string,
  changes: ProfileChanges,
): Promise<TUserProfile> {
  const { rows } = await db.query<UserRow>(
    `UPDATE users SET
       first_name = COALESCE($2, first_name),
       last_name = COALESCE($3, last_name),
       display_name = COALESCE($4, display_name),
       photo_url = CASE WHEN $5::boolean THEN $6 ELSE photo_url END,
       updated_at = now()
     WHERE id = $1
     RETURNING ${USER_COLUMNS}`,
    [
      userId,
      changes.firstName ?? null,
      changes.lastName ?? null,
      changes.displayName ?? null,
      changes.photoUrl !== undefined,
      changes.photoUrl ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new AppError(ERROR_CODES.unauthorized, 401, AUTH_MESSAGES.unauthorized);
  return toUserProfileOf(db, row);
}
