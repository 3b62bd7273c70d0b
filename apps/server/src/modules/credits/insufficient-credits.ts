import {
  creditRefusalMessage,
  ERROR_CODES,
  INSUFFICIENT_CREDITS_MESSAGE,
  type TCreditRefusal,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";

/** 402 `insufficient_credits` for a ledger entry that would take the balance below zero. */
export function insufficientCredits(required: number, available: number): AppError {
  return new AppError(ERROR_CODES.insufficientCredits, 402, INSUFFICIENT_CREDITS_MESSAGE, {
    required,
    available,
  });
}

/**
 * 402 refusing a hold (decision 053): the wallet (`insufficient_credits`) or another limit
 * (its own code), naming the limit, what is left of it and what the smallest step needs.
 */
export function creditRefusal(
  code: string,
  refusal: TCreditRefusal,
  extra: Record<string, unknown> = {},
): AppError {
  return new AppError(
    code,
    402,
    creditRefusalMessage(refusal.limit, refusal.available, refusal.required),
    { ...extra, ...refusal },
  );
}
