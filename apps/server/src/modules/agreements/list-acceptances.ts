import type { TAgreementAcceptance } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { type AcceptanceRow, toAcceptance } from "./agreement-row";

/** The user's acceptances, newest first. */
export async function listAcceptances(
  db: Queryable,
  userId: string,
): Promise<TAgreementAcceptance[]> {
  const { rows } = await db.query<AcceptanceRow>(
    `SELECT x.id, x.agreement_id, a.version, x.accepted_at, x.source
     FROM agreement_acceptances x JOIN agreements a ON a.id = x.agreement_id
     WHERE x.user_id = $1 ORDER BY x.accepted_at DESC, a.seq DESC`,
    [userId],
  );
  return rows.map(toAcceptance);
}
