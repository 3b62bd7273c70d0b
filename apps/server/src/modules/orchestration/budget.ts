import { formatCredits, RUN_ERROR_CODES } from "@cohort/contracts";
import { RunStop } from "./run-context";

/**
 * A session's credit cap, applied to worst cases: a call starts only if its hold fits in
 * what is left after the session's past spend, this run's charges and the holds of calls
 * still running. So the cap is never passed, whatever the calls end up costing.
 */
export class Budget {
  private held = 0;
  private charged = 0;

  constructor(
    readonly limit: number | null,
    private readonly spentBefore: number,
  ) {}

  get remaining(): number | null {
    return this.limit === null ? null : this.limit - this.spentBefore - this.charged - this.held;
  }

  /** Holds `worstCase` of the budget, or throws a RunStop naming the step that would pass it. */
  take(worstCase: number, what: string): void {
    const remaining = this.remaining;
    if (remaining !== null && worstCase > remaining + 1e-9) {
      throw new RunStop(
        RUN_ERROR_CODES.budgetExceeded,
        `This session's budget of ${formatCredits(this.limit as number)} credits would be passed: ${what} may cost up to ${formatCredits(worstCase)} credits and ${formatCredits(Math.max(0, round(remaining)))} are left. Raise the session's budget to continue.`,
      );
    }
    this.held += worstCase;
  }

  settle(worstCase: number, charged: number): void {
    this.held = Math.max(0, this.held - worstCase);
    this.charged += charged;
  }

  release(worstCase: number): void {
    this.held = Math.max(0, this.held - worstCase);
  }
}

const round = (n: number) => Math.floor(n * 100) / 100;
