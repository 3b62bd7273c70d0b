import {
  DEFAULT_DISPLAY_NAME,
  hasCoChatAccess,
  type TSubscriptionTier,
  type TUserProfile,
  type TUserRole,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { getCreditBalances } from "../credits/get-balance";

/** The users table as it comes back from a query; only this module's files read it. */
export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: string | null;
  photo_url: string | null;
  identity_uid: string | null;
  email_verified_at: Date | string | null;
  role: TUserRole;
  subscription_tier: TSubscriptionTier;
  created_at: Date | string;
}

export const USER_COLUMNS =
  "id, email, first_name, last_name, display_name, photo_url, identity_uid, email_verified_at, role, subscription_tier, created_at";

/** "u." prefixed columns, for queries that join users to another table. */
export const USER_COLUMNS_U = USER_COLUMNS.split(", ")
  .map((column) => `u.${column}`)
  .join(", ");

/**
 * The same columns as `json_build_object` arguments (`'id', u.id, …`): a statement that
 * gives its row as one JSON value (the sign-in's, decision 088). Its timestamps arrive as
 * PostgreSQL's JSON text of them, which `toUserProfile` reads as it reads a Date.
 */
export const USER_JSON_FIELDS_U = USER_COLUMNS.split(", ")
  .map((column) => `'${column}', u.${column}`)
  .join(", ");

/**
 * Profiles for user rows. The balance belongs to the credits module (its ledger), so it is
 * read through that module's service rather than from a users column.
 */
export async function toUserProfiles(
  db: Queryable,
  rows: readonly UserRow[],
): Promise<TUserProfile[]> {
  if (rows.length === 0) return [];
  const balances = await getCreditBalances(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toUserProfile(row, balances.get(row.id) ?? 0));
}

export async function toUserProfileOf(db: Queryable, row: UserRow): Promise<TUserProfile> {
  return toUserProfile(row, (await getCreditBalances(db, [row.id])).get(row.id) ?? 0);
}

/** A profile from a row whose balance was read in the same statement (the request guard). */
export function toUserProfile(row: UserRow, creditsRemaining: number): TUserProfile {
  const fullName = `${row.first_name} ${row.last_name}`.trim();
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    displayName: row.display_name || fullName || DEFAULT_DISPLAY_NAME,
    photoURL: row.photo_url,
    uid: row.identity_uid,
    emailVerified: row.email_verified_at !== null,
    role: row.role,
    credits_remaining: creditsRemaining,
    subscription_tier: row.subscription_tier,
    cochat_access: hasCoChatAccess(row.subscription_tier),
    created_at: new Date(row.created_at).toISOString(),
  };
}
