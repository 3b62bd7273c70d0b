import { ERROR_CODES, type TAgreement, type TPublishAgreementRequest } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { AppError } from "../../platform/errors";
import { AGREEMENT_COLUMNS, type AgreementRow, toAgreement } from "./agreement-row";

/** Publishes a new version; from now on every user must accept it (or decline, if allowed). */
export async function publishAgreement(
  db: Queryable,
  input: TPublishAgreementRequest,
): Promise<TAgreement> {
  const { rows } = await db.query<AgreementRow>(
    `INSERT INTO agreements (version, effective_date, content, allow_decline)
     VALUES ($1, $2::date, $3, $4)
     ON CONFLICT (version) DO NOTHING
     RETURNING ${AGREEMENT_COLUMNS}`,
    [input.version, input.effectiveDate, input.content, input.allowDecline],
  );
  if (!rows[0]) {
    throw new AppError(
      ERROR_CODES.conflict,
      409,
      `Version ${input.version} has already been published. Choose a new version number.`,
    );
  }
  return toAgreement(rows[0]);
}
