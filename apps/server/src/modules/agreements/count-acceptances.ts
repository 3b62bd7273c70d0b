import type { TAdminAgreementVersion } from "@cohort/contracts";
import type { Queryable } from "../../db/client";

interface Row {
  id: string;
  version: string;
  effective_date: string;
  allow_decline: boolean;
  published_at: Date | string;
  acceptances: number;
  declines: number;
  current: boolean;
}

/** Every published version, newest first, with how many users accepted and declined it. */
export async function countAcceptances(db: Queryable): Promise<TAdminAgreementVersion[]> {
  const { rows } = await db.query<Row>(
    `SELECT a.id, a.version, to_char(a.effective_date, 'YYYY-MM-DD') AS effective_date,
       a.allow_decline, a.published_at,
       (SELECT count(*)::int FROM agreement_acceptances x WHERE x.agreement_id = a.id) AS acceptances,
       (SELECT count(*)::int FROM agreement_declines d WHERE d.agreement_id = a.id) AS declines,
       a.seq = (SELECT max(seq) FROM agreements) AS current
     FROM agreements a ORDER BY a.seq DESC`,
  );
  return rows.map((row) => ({
    id: row.id,
    version: row.version,
    effectiveDate: row.effective_date,
    allowDecline: row.allow_decline,
    published_at: new Date(row.published_at).toISOString(),
    current: row.current,
    acceptances: row.acceptances,
    declines: row.declines,
  }));
}
