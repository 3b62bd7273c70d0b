import {
  DEFAULT_DISPLAY_NAME,
  hasCoChatAccess,
  type TSubscriptionTier,
  type TUserProfile,
  type TUserRole,
} from "@cohort/contracts";

/** The users table as it comes back from a query; only this module's files read it. */
export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  display_name: string | null;
  photo_url: string | null;
  email_verified_at: Date | string | null;
  role: TUserRole;
  credits_remaining: number;
  subscription_tier: TSubscriptionTier;
  created_at: Date | string;
}

export const USER_COLUMNS =
  "id, email, first_name, last_name, display_name, photo_url, email_verified_at, role, credits_remaining, subscription_tier, created_at";

/** "u." prefixed columns, for queries that join users to another table. */
export const USER_COLUMNS_U = USER_COLUMNS.split(", ")
  .map((column) => `u.${column}`)
  .join(", ");

export function toUserProfile(row: UserRow): TUserProfile {
  const fullName = `${row.first_name} ${row.last_name}`.trim();
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    displayName: row.display_name || fullName || DEFAULT_DISPLAY_NAME,
    photoURL: row.photo_url,
    emailVerified: row.email_verified_at !== null,
    role: row.role,
    credits_remaining: Number(row.credits_remaining),
    subscription_tier: row.subscription_tier,
    cochat_access: hasCoChatAccess(row.subscription_tier),
    created_at: new Date(row.created_at).toISOString(),
  };
}
