import type { Queryable } from "../../db/client";
import { USER_AGREEMENT_V1 } from "./user-agreement-v1";

/**
 * Publishes version 1.0 on an empty table, so a fresh install asks for a real agreement.
 * Safe to run on every start and on several instances at once.
 */
export async function seedDefaultAgreement(db: Queryable): Promise<void> {
  await db.query(
    `INSERT INTO agreements (version, effective_date, content, allow_decline)
     SELECT $1, $2::date, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM agreements)
     ON CONFLICT (version) DO NOTHING`,
    [
      USER_AGREEMENT_V1.version,
      USER_AGREEMENT_V1.effectiveDate,
      USER_AGREEMENT_V1.content,
      USER_AGREEMENT_V1.allowDecline,
    ],
  );
}
