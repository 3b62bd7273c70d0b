import type { TAgreement } from "@cohort/contracts";
import type { Queryable } from "../../db/client";
import { isUuid } from "../../db/uuid";
import { AGREEMENT_COLUMNS, type AgreementRow, toAgreement } from "./agreement-row";

/** The most recently published version: the one every user must have accepted. */
export async function getCurrentAgreement(db: Queryable): Promise<TAgreement | null> {
  const { rows } = await db.query<AgreementRow>(
    `SELECT ${AGREEMENT_COLUMNS} FROM agreements ORDER BY seq DESC LIMIT 1`,
  );
  return rows[0] ? toAgreement(rows[0]) : null;
}

/** The current version without its text: what the product-call guard needs. */
export interface AgreementVersion {
  id: string;
  version: string;
  allowDecline: boolean;
}

/** The current version, reading a few bytes instead of the whole text (~11 KB). */
export async function getCurrentVersion(db: Queryable): Promise<AgreementVersion | null> {
  const { rows } = await db.query<{ id: string; version: string; allow_decline: boolean }>(
    "SELECT id, version, allow_decline FROM agreements ORDER BY seq DESC LIMIT 1",
  );
  const row = rows[0];
  return row ? { id: row.id, version: row.version, allowDecline: row.allow_decline } : null;
}

export async function findAgreement(db: Queryable, id: string): Promise<TAgreement | null> {
  if (!isUuid(id)) return null;
  const { rows } = await db.query<AgreementRow>(
    `SELECT ${AGREEMENT_COLUMNS} FROM agreements WHERE id = $1`,
    [id],
  );
  return rows[0] ? toAgreement(rows[0]) : null;
}
