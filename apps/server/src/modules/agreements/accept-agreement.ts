import {
  AGREEMENT_ERROR_CODES,
  AGREEMENT_MESSAGES,
  ERROR_CODES,
  type TAgreementAcceptance,
} from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { type AcceptanceRow, toAcceptance } from "./agreement-row";
import { findAgreement, getCurrentAgreement } from "./get-current-agreement";

export interface AcceptanceInput {
  userId: string;
  agreementId: string;
  source: string;
  ip: string | null;
  /**
   * true (the accept call): only the current version can be accepted. false (sign-up): the
   * version the user was shown is recorded even if a newer one appeared meanwhile — it is
   * what they agreed to, and the newer one will be asked for after sign-in.
   */
  currentOnly: boolean;
}

/** Records the acceptance; accepting a version twice keeps the first record. */
export async function acceptAgreement(
  db: Queryable,
  input: AcceptanceInput,
): Promise<TAgreementAcceptance> {
  const agreement = await findAgreement(db, input.agreementId);
  if (!agreement) throw new AppError(ERROR_CODES.notFound, 404, "This agreement does not exist.");
  if (input.currentOnly) {
    const current = await getCurrentAgreement(db);
    if (current?.id !== agreement.id) {
      throw new AppError(AGREEMENT_ERROR_CODES.notCurrent, 409, AGREEMENT_MESSAGES.notCurrent);
    }
  }
  await db.query(
    `INSERT INTO agreement_acceptances (user_id, agreement_id, source, ip) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, agreement_id) DO NOTHING`,
    [input.userId, agreement.id, input.source, input.ip],
  );
  const { rows } = await db.query<AcceptanceRow>(
    `SELECT x.id, x.agreement_id, a.version, x.accepted_at, x.source
     FROM agreement_acceptances x JOIN agreements a ON a.id = x.agreement_id
     WHERE x.user_id = $1 AND x.agreement_id = $2`,
    [input.userId, agreement.id],
  );
  return toAcceptance(rows[0] as AcceptanceRow);
}
