import type { TAdminUserDetail } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { listSignIns } from "../auth/list-sign-ins";
import { listLedger } from "../credits/list-ledger";
import { countUserSessions } from "../sessions/count-user-sessions";
import { findAdminUser } from "../users/find-admin-users";

/** Everything the admin's user page shows in one answer; null when there is no such user. */
export async function getUserDetail(
  db: Queryable,
  userId: string,
): Promise<TAdminUserDetail | null> {
  const user = await findAdminUser(db, userId);
  if (!user) return null;
  const [sessionsCount, signIns, ledger] = await Promise.all([
    countUserSessions(db, userId),
    // No sign-in is "current" here: the admin is looking at someone else's.
    listSignIns(db, userId, ""),
    listLedger(db, userId, { page: 1, pageSize: 20 }),
  ]);
  return {
    user,
    sessions_count: sessionsCount,
    sign_ins: signIns,
    ledger: ledger.entries,
    ledger_total: ledger.total,
  };
}
