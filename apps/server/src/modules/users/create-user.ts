import type { TUserProfile, TUserRole } from "@cohort/contracts";
import { AUTH_ERROR_CODES, AUTH_MESSAGES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { toUserProfileOf, USER_COLUMNS, type UserRow } from "./user-row";

export interface NewUser {
  email: string;
  firstName?: string;
  lastName?: string;
  displayName?: string | null;
  photoUrl?: string | null;
  emailVerified?: boolean;
  role?: TUserRole;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Creates a user; 409 `email_taken` when the address (compared case-insensitively) is in use.
 * ON CONFLICT instead of catching the unique violation keeps a surrounding transaction usable.
 */
export async function createUser(db: Queryable, user: NewUser): Promise<TUserProfile> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO users (email, first_name, last_name, display_name, photo_url, email_verified_at, role)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::boolean THEN now() END, $7)
     ON CONFLICT ((lower(email))) DO NOTHING
     RETURNING ${USER_COLUMNS}`,
    [
      normalizeEmail(user.email),
      user.firstName ?? "",
      user.lastName ?? "",
      user.displayName ?? null,
      user.photoUrl ?? null,
      user.emailVerified ?? false,
      user.role ?? "user",
    ],
  );
  const row = rows[0];
  if (!row) throw new AppError(AUTH_ERROR_CODES.emailTaken, 409, AUTH_MESSAGES.emailTaken);
  return toUserProfileOf(db, row);
}
