import type { TAgreement, TAgreementAcceptance } from "@cohort/contracts";

export interface AgreementRow {
  id: string;
  version: string;
  effective_date: string;
  content: string;
  allow_decline: boolean;
}

/** effective_date as text: pg would turn a date into a local-time Date and shift the day. */
export const AGREEMENT_COLUMNS =
  "id, version, to_char(effective_date, 'YYYY-MM-DD') AS effective_date, content, allow_decline";

export function toAgreement(row: AgreementRow): TAgreement {
  return {
    id: row.id,
    version: row.version,
    effectiveDate: row.effective_date,
    content: row.content,
    allowDecline: row.allow_decline,
  };
}

export interface AcceptanceRow {
  id: string;
  agreement_id: string;
  version: string;
  accepted_at: Date | string;
  source: string;
}

export function toAcceptance(row: AcceptanceRow): TAgreementAcceptance {
  return {
    id: row.id,
    agreementId: row.agreement_id,
    version: row.version,
    acceptedAt: new Date(row.accepted_at).toISOString(),
    source: row.source,
  };
}
