import type { TAdminUser } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { toUserProfiles, USER_COLUMNS, type UserRow } from "./user-row";

/** A users row with the admin-only state the profile leaves out. */
export interface AdminUserRow extends UserRow {
  disabled_at: Date | string | null;
}

export const ADMIN_USER_COLUMNS = `${USER_COLUMNS}, disabled_at`;

export async function toAdminUsers(
  db: Queryable,
  rows: readonly AdminUserRow[],
): Promise<TAdminUser[]> {
  const profiles = await toUserProfiles(db, rows);
  return profiles.map((profile, index) => {
    const disabledAt = rows[index]?.disabled_at ?? null;
    return { ...profile, disabled_at: disabledAt ? new Date(disabledAt).toISOString() : null };
  });
}
