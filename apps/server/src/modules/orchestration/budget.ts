import {
  addHundredths,
  creditsOf,
  type Hundredths,
  leftOf,
  NO_CREDITS,
  RUN_ERROR_CODES,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";

const twoPlaces = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * A session's credit cap, applied to worst cases: a call starts only if its hold fits in
 * what is left after the session's past spend, this run's charges and the holds of calls
 * still running. So the cap is never passed, whatever the calls end up costing. `take` is
 * the one budget check: the planning call's (answered as a 402 when the message is sent)
 * and every later call's (which ends the run) go through it.
 */
export class Budget {
  private held: Hundredths = NO_CREDITS;
  private charged: Hundredths = NO_CREDITS;

  constructor(
    readonly limit: Hundredths | null,
    private readonly spentBefore: Hundredths,
  ) {}

  get remaining(): Hundredths | null {
    return this.limit === null
      ? null
      : leftOf(this.limit, addHundredths(this.spentBefore, this.charged, this.held));
  }

  /** Holds `worstCase` of the budget, or throws 402 `budget_exceeded` naming the call. */
  take(worstCase: Hundredths, what: string): void {
    const remaining = this.remaining;
    if (this.limit !== null && remaining !== null && worstCase > remaining) {
      const spent = addHundredths(this.spentBefore, this.charged);
      // What was spent and the cap, always: a refusal at 0.00 spent must read as "the cap is
      // below this step's worst case", never as a budget used up (decision 031).
      throw new AppError(
        RUN_ERROR_CODES.budgetExceeded,
        402,
        `This session has spent ${twoPlaces.format(creditsOf(spent))} of its ${twoPlaces.format(creditsOf(this.limit))} credit budget: ${what} may cost up to ${twoPlaces.format(creditsOf(worstCase))} credits and ${twoPlaces.format(creditsOf(remaining))} are left. Raise the session's budget to continue.`,
        {
          budget: creditsOf(this.limit),
          spent: creditsOf(spent),
          required: creditsOf(worstCase),
        },
      );
    }
    this.held = addHundredths(this.held, worstCase);
  }

  settle(worstCase: Hundredths, charged: Hundredths): void {
    this.held = leftOf(this.held, worstCase);
    this.charged = addHundredths(this.charged, charged);
  }

  release(worstCase: Hundredths): void {
    this.held = leftOf(this.held, worstCase);
  }
}
