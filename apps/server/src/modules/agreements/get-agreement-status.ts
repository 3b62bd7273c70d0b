import type { TAgreementStatus } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { getCurrentAgreement } from "./get-current-agreement";
import { DECIDED_SQL } from "./has-decided-agreement";

/**
 * Whether the user still has to decide on the current version. A decision is an acceptance,
 * or a decline where that version allows declining (then the version is optional for them).
 */
export async function getAgreementStatus(db: Queryable, userId: string): Promise<TAgreementStatus> {
  const agreement = await getCurrentAgreement(db);
  const { rows } = await db.query<{ decided: boolean; last_accepted_at: Date | null }>(
    `SELECT
       ${DECIDED_SQL} AS decided,
       (SELECT max(accepted_at) FROM agreement_acceptances WHERE user_id = $1) AS last_accepted_at`,
    [userId, agreement?.id ?? null],
  );
  const row = rows[0];
  return {
    requiresAcceptance: agreement !== null && !row?.decided,
    agreement,
    lastAcceptedAt: row?.last_accepted_at ? new Date(row.last_accepted_at).toISOString() : null,
  };
}
