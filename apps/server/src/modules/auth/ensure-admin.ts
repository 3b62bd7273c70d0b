import type { Db } from "../../db/client";
import { createUser } from "../users/create-user";
import { findUserByEmail } from "../users/find-user";
import { markEmailVerified } from "../users/mark-email-verified";
import { setUserRole } from "../users/set-user-role";
import { checkPasswordPolicy } from "./check-password-policy";
import { hashPassword } from "./hash-password";
import { findPasswordHash, setPasswordHash } from "./set-password";
import { verifyPassword } from "./verify-password";

/**
 * Makes ADMIN_EMAIL an admin whose password is ADMIN_PASSWORD, creating the account if
 * needed. Runs at every start: the hash is rewritten only when the password changed, so a
 * restart leaves sign-ins and hashes alone. A guessable admin password stops the start.
 */
export async function ensureAdmin(
  db: Db,
  admin: { email: string; password: string },
): Promise<void> {
  try {
    checkPasswordPolicy(admin.password, admin.email);
  } catch (error) {
    throw new Error(`ADMIN_PASSWORD: ${(error as Error).message}`);
  }
  const existing = await findUserByEmail(db, admin.email);
  const stored = await findPasswordHash(db, existing?.id ?? null);
  const unchanged = stored !== null && (await verifyPassword(stored, admin.password));
  const passwordHash = unchanged ? null : await hashPassword(admin.password);
  const apply = () =>
    db.transaction(async (tx) => {
      const user =
        (await findUserByEmail(tx, admin.email)) ??
        (await createUser(tx, {
          email: admin.email,
          firstName: "Admin",
          lastName: "",
          displayName: "Administrator",
          emailVerified: true,
          role: "admin",
        }));
      if (user.role !== "admin") await setUserRole(tx, user.id, "admin");
      if (!user.emailVerified) await markEmailVerified(tx, user.id, user.email);
      if (passwordHash) await setPasswordHash(tx, user.id, passwordHash);
    });
  // Two instances starting together may both try to create the account; the loser retries
  // once and then finds it.
  await apply().catch(apply);
}
