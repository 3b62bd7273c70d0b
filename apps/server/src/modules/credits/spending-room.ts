import { type Hundredths, hundredths, type TCreditLimitKind } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { memberUseThisMonth } from "./member-cap";
import type { Payer } from "./payer";
import { personalLimitLeft } from "./spending-limit";

/** What one limit leaves for new holds now. */
export interface Room {
  kind: TCreditLimitKind;
  available: Hundredths;
}

/**
 * What each of the payer's limits leaves now, without locking (a preview: the cost estimate,
 * and a refusal saying which limit bit): the wallet (own balance or the team's pool), the
 * member's cap in a team, the user's personal monthly limit. The session's budget is the
 * engine's to add.
 */
export async function spendingRooms(db: Queryable, payer: Payer): Promise<Room[]> {
  const userId = payer.memberId ?? payer.accountId;
  const [account, cap, limit] = await Promise.all([
    db.query<{ available: number }>(
      "SELECT balance - held AS available FROM credit_accounts WHERE user_id = $1",
      [payer.accountId],
    ),
    payer.memberId === null
      ? null
      : db.query<{ monthly_cap: number | null }>(
          "SELECT monthly_cap FROM credit_member_caps WHERE account_id = $1 AND member_id = $2",
          [payer.accountId, payer.memberId],
        ),
    db.query<{ monthly_limit: number | null }>(
      "SELECT monthly_limit FROM credit_spending_limits WHERE user_id = $1",
      [userId],
    ),
  ]);
  const rooms: Room[] = [
    {
      kind: payer.memberId === null ? "balance" : "workspace_pool",
      available: hundredths(Math.max(0, Number(account.rows[0]?.available ?? 0))),
    },
  ];
  const capValue = cap?.rows[0]?.monthly_cap ?? null;
  if (payer.memberId !== null && capValue !== null) {
    const use = await memberUseThisMonth(db, payer.accountId, payer.memberId);
    rooms.push({
      kind: "member_cap",
      available: hundredths(Math.max(0, Number(capValue) - use.held - use.spent)),
    });
  }
  const limitValue = limit.rows[0]?.monthly_limit ?? null;
  if (limitValue !== null) {
    const left = await personalLimitLeft(db, userId, hundredths(Number(limitValue)));
    if (left !== null) rooms.push({ kind: "personal_limit", available: left });
  }
  return rooms;
}

/** The tightest of some rooms (the first of equals: the wallet before the caps). */
export function tightest(rooms: readonly Room[]): Room | null {
  let least: Room | null = null;
  for (const room of rooms) if (!least || room.available < least.available) least = room;
  return least;
}
