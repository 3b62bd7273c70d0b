import { describe, expect, it } from "vitest";
import { describeChecks } from "./code-runs";

describe("describeChecks", () => {
  it("says what ran, what passed and names the failures", () => {
    expect(describeChecks({ ran: 6, passed: 5, failed: 1, failures: ["test_overdue_fine"] })).toBe(
      "Ran 6 checks: 5 passed, 1 failed (test_overdue_fine)",
    );
    expect(describeChecks({ ran: 1, passed: 1, failed: 0, failures: [] })).toBe(
      "Ran 1 check: 1 passed, 0 failed",
    );
    expect(describeChecks({ ran: 0, passed: 0, failed: 0, failures: [] })).toBe(
      "Ran no checks: the code has no tests",
    );
  });
});
