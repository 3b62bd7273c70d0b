import { fromHundredths } from "./amounts";

export type HoldStatus = "open" | "settled" | "released" | "expired";

/** A credit hold (reservation) as the credits services hand it out; amounts in credits. */
export interface Hold {
  id: string;
  userId: string;
  reference: string;
  amount: number;
  charged: number;
  status: HoldStatus;
  expiresAt: string;
}

export interface HoldRow {
  id: string;
  user_id: string;
  reference: string;
  amount: number;
  charged: number;
  status: HoldStatus;
  expires_at: Date | string;
}

export const HOLD_COLUMNS = "id, user_id, reference, amount, charged, status, expires_at";

export function toHold(row: HoldRow): Hold {
  return {
    id: row.id,
    userId: row.user_id,
    reference: row.reference,
    amount: fromHundredths(row.amount),
    charged: fromHundredths(row.charged),
    status: row.status,
    expiresAt: new Date(row.expires_at).toISOString(),
  };
}
