import { creditsOf, hundredths, hundredthsOf } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

export interface CapChange {
  /** Both in credits; null: no cap. */
  previous: number | null;
  current: number | null;
}

/**
 * Sets a member's monthly cap on a team pool (null: no cap). It takes the member's row lock
 * that every team reserve takes, so a reserve checks either the old cap or the new one, never
 * a mix; holds already made stay (a lowered cap only refuses new ones). Run it in the
 * transaction that writes its audit line.
 */
export async function setMemberCap(
  tx: Queryable,
  accountId: string,
  memberId: string,
  credits: number | null,
): Promise<CapChange> {
  const { rows } = await tx.query<{ previous: number | null }>(
    "SELECT monthly_cap AS previous FROM credit_member_caps WHERE account_id = $1 AND member_id = $2 FOR UPDATE",
    [accountId, memberId],
  );
  const cap = credits === null ? null : hundredthsOf(credits);
  await tx.query(
    `INSERT INTO credit_member_caps (account_id, member_id, monthly_cap) VALUES ($1, $2, $3)
     ON CONFLICT (account_id, member_id)
     DO UPDATE SET monthly_cap = EXCLUDED.monthly_cap, updated_at = now()`,
    [accountId, memberId, cap],
  );
  const previous = rows[0]?.previous ?? null;
  return {
    previous: previous === null ? null : creditsOf(hundredths(previous)),
    current: cap === null ? null : creditsOf(hundredths(cap)),
  };
}
