import { ACCOUNT_DISABLED } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { hashOpaqueToken, newOpaqueToken } from "./opaque-token";
import type { SignInSettings } from "./sign-in-settings";

export interface IssuedSignIn {
  signInId: string;
  token: string;
}

export async function issueSignIn(
  db: Queryable,
  userId: string,
  settings: SignInSettings,
  meta: { userAgent?: string | undefined; ip?: string | undefined },
): Promise<IssuedSignIn> {
  const token = newOpaqueToken();
  // The account's state is read in the same statement, so a disabled account (admin area)
  // gets no new sign-in by any route (password, Google, admin) at no extra round trip.
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO sign_ins (user_id, token_hash, idle_expires_at, expires_at, user_agent, ip)
     SELECT id, $2, now() + make_interval(secs => $3), now() + make_interval(secs => $4), $5, $6
     FROM users WHERE id = $1 AND disabled_at IS NULL
     RETURNING id`,
    [
      userId,
      hashOpaqueToken(token),
      settings.idleDays * 86_400,
      settings.maxDays * 86_400,
      meta.userAgent?.slice(0, 512) ?? null,
      meta.ip ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new AppError(ACCOUNT_DISABLED.code, 403, ACCOUNT_DISABLED.message);
  return { signInId: row.id, token };
}
