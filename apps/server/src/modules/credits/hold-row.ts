import { type Hundredths, hundredths } from "@cohort/contracts";

export type HoldStatus = "open" | "settled" | "released" | "expired";

/**
 * A credit hold (reservation) as the credits services hand it out. Its amounts are the
 * engine's hundredths (decision 014): holds never reach the wire, so nothing converts them.
 */
export interface Hold {
  id: string;
  /** The paying account (a workspace; a personal one has its user's id). */
  userId: string;
  /** The team member whose monthly cap the hold counts against; null on a personal account. */
  memberId: string | null;
  reference: string;
  amount: Hundredths;
  charged: Hundredths;
  status: HoldStatus;
  expiresAt: string;
}

export interface HoldRow {
  id: string;
  user_id: string;
  member_id: string | null;
  reference: string;
  amount: number;
  charged: number;
  status: HoldStatus;
  expires_at: Date | string;
}

export const HOLD_COLUMNS =
  "id, user_id, member_id, reference, amount, charged, status, expires_at";

export function toHold(row: HoldRow): Hold {
  return {
    id: row.id,
    userId: row.user_id,
    memberId: row.member_id,
    reference: row.reference,
    amount: hundredths(row.amount),
    charged: hundredths(row.charged),
    status: row.status,
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}
