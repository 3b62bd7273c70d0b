import { dropSignInSockets } from "../auth/drop-sign-in-sockets";
import { revokeAllSignIns } from "../auth/revoke-sign-ins";
import { type AdminActor, recordAdminAction } from "./record-admin-action";
import type { AdminDeps } from "./set-user-disabled";

/** Ends every sign-in of the user (the account stays usable); returns how many ended. */
export async function revokeUserSignIns(
  deps: AdminDeps,
  actor: AdminActor,
  userId: string,
): Promise<number> {
  const revoked = await deps.db.transaction(async (tx) => {
    const ids = await revokeAllSignIns(tx, userId);
    await recordAdminAction(tx, actor, {
      action: "user.revoke_sign_ins",
      targetType: "user",
      targetId: userId,
      before: { active_sign_ins: ids.length },
      after: { active_sign_ins: 0 },
    });
    return ids;
  });
  dropSignInSockets(deps.realtime, revoked);
  return revoked.length;
}
