import { ERROR_CODES, INSUFFICIENT_CREDITS_MESSAGE } from "@cohort/contracts";
import { AppError } from "../../platform/errors";

export function insufficientCredits(required: number, available: number): AppError {
  return new AppError(ERROR_CODES.insufficientCredits, 402, INSUFFICIENT_CREDITS_MESSAGE, {
    required,
    available,
  });
}
