import {
  addHundredths,
  creditRefusalMessage,
  creditsOf,
  type Hundredths,
  hundredths,
  leftOf,
  NO_CREDITS,
  RUN_ERROR_CODES,
} from "@cohort/contracts";
import { AppError } from "../../platform/errors";

/**
 * A session's credit cap, applied to what calls hold (decision 053): a call holds no more
 * than what is left after the session's past spend, this run's charges and the holds of
 * calls still running, and grows its hold only within it. So the cap is never passed,
 * whatever the calls end up costing. `takeUpTo` is the one budget check: the planning call's
 * (answered as a 402 when the message is sent) and every later call's (which ends the run)
 * go through it.
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

  /**
   * Holds up to `wanted` of the budget and returns what it held; 402 `budget_exceeded` when
   * not even `minimum` (the call's input and a minimal answer) is left.
   */
  takeUpTo(wanted: Hundredths, minimum: Hundredths): Hundredths {
    const remaining = this.remaining;
    if (remaining !== null && remaining < minimum) {
      const spent = addHundredths(this.spentBefore, this.charged);
      throw new AppError(
        RUN_ERROR_CODES.budgetExceeded,
        402,
        creditRefusalMessage("session_budget", creditsOf(remaining), creditsOf(minimum)),
        {
          budget: creditsOf(this.limit as Hundredths),
          spent: creditsOf(spent),
          limit: "session_budget",
          available: creditsOf(remaining),
          required: creditsOf(minimum),
        },
      );
    }
    const taken = remaining === null ? wanted : hundredths(Math.min(wanted, remaining));
    this.held = addHundredths(this.held, taken);
    return taken;
  }

  /** Holds up to `wanted` more for a call that grows; 0 when nothing is left. */
  extend(wanted: Hundredths): Hundredths {
    const remaining = this.remaining;
    const taken = remaining === null ? wanted : hundredths(Math.min(wanted, remaining));
    this.held = addHundredths(this.held, taken);
    return taken;
  }

  settle(held: Hundredths, charged: Hundredths): void {
    this.held = leftOf(this.held, held);
    this.charged = addHundredths(this.charged, charged);
  }

  release(held: Hundredths): void {
    this.held = leftOf(this.held, held);
  }
}
