import { AGREEMENT_ERROR_CODES, AGREEMENT_MESSAGES, ERROR_CODES } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { getCurrentAgreement } from "./get-current-agreement";

/**
 * Declines the current version. The validation rules: refused unless that version allows declining; where
 * it does, the decline is recorded and the version stops blocking the user.
 */
export async function declineAgreement(
  db: Queryable,
  input: { userId: string; agreementId?: string | undefined; source: string; ip: string | null },
): Promise<void> {
  const current = await getCurrentAgreement(db);
  if (!current) throw new AppError(ERROR_CODES.notFound, 404, "There is no agreement to decline.");
  if (input.agreementId !== undefined && input.agreementId !== current.id) {
    throw new AppError(AGREEMENT_ERROR_CODES.notCurrent, 409, AGREEMENT_MESSAGES.notCurrent);
  }
  if (!current.allowDecline) {
    throw new AppError(
      AGREEMENT_ERROR_CODES.declineNotAllowed,
      403,
      AGREEMENT_MESSAGES.declineNotAllowed,
    );
  }
  await db.query(
    `INSERT INTO agreement_declines (user_id, agreement_id, source, ip) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, agreement_id) DO NOTHING`,
    [input.userId, current.id, input.source, input.ip],
  );
}
