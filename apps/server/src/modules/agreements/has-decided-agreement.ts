import { prepared, type Queryable } from "../../db/client";

/**
 * SQL: whether user $1 has decided on agreement $2 — accepted it, or declined it where that
 * version allows declining. The one definition, shared by the status and the guard.
 */
export const DECIDED_SQL = `(EXISTS (SELECT 1 FROM agreement_acceptances WHERE user_id = $1 AND agreement_id = $2)
  OR EXISTS (SELECT 1 FROM agreement_declines d JOIN agreements a ON a.id = d.agreement_id
             WHERE d.user_id = $1 AND d.agreement_id = $2 AND a.allow_decline))`;

const DECIDED = prepared(`SELECT ${DECIDED_SQL} AS decided`);

export async function hasDecidedAgreement(
  db: Queryable,
  userId: string,
  agreementId: string,
): Promise<boolean> {
  const { rows } = await db.query<{ decided: boolean }>(DECIDED, [userId, agreementId]);
  return rows[0]?.decided === true;
}
