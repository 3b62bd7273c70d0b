import type { Db } from "../../db/client";
import type { Realtime } from "../../platform/realtime";
import { dropSignInSockets } from "../auth/drop-sign-in-sockets";
import { revokeAllSignIns } from "../auth/revoke-sign-ins";
import { setAccountDisabled } from "../users/set-account-disabled";
import { type AdminActor, recordAdminAction } from "./record-admin-action";

export interface AdminDeps {
  db: Db;
  realtime: Realtime;
}

/**
 * Disables an account (its sign-ins end and its sockets close at once, and no new sign-in
 * starts) or enables it again. The state, the revocations and the audit entry commit
 * together; sockets are dropped after commit. False when there is no such user.
 */
export async function setUserDisabled(
  deps: AdminDeps,
  actor: AdminActor,
  input: { userId: string; disabled: boolean; reason: string },
): Promise<boolean> {
  const result = await deps.db.transaction(async (tx) => {
    const change = await setAccountDisabled(tx, input.userId, input.disabled);
    if (!change) return null;
    const revoked = input.disabled ? await revokeAllSignIns(tx, input.userId) : [];
    await recordAdminAction(tx, actor, {
      action: input.disabled ? "user.disable" : "user.enable",
      targetType: "user",
      targetId: input.userId,
      before: { disabled_at: change.before },
      after: { disabled_at: change.after, revoked_sign_ins: revoked.length },
      reason: input.reason,
    });
    return revoked;
  });
  if (!result) return false;
  dropSignInSockets(deps.realtime, result);
  return true;
}
