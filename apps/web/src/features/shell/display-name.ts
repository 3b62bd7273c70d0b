import { DEFAULT_DISPLAY_NAME, type TUserProfile } from "@cohort/contracts";

/** The route table: the user's display name, "Demo User" where none is known. */
export function displayNameOf(user: TUserProfile | null): string {
  return user?.displayName.trim() || DEFAULT_DISPLAY_NAME;
}
