import { z } from "zod";

// run_code (decision 062): its input, the structured result the UI and exports show, and the
// checks the Critic's verdict rests on.

export const CODE_LANGUAGES = ["python", "javascript", "typescript"] as const;
export const ZCodeLanguage = z.enum(CODE_LANGUAGES);
export type TCodeLanguage = z.infer<typeof ZCodeLanguage>;

/** The largest program run_code accepts, in characters. */
export const RUN_CODE_MAX_CHARS = 100_000;

export const ZRunCodeInput = z.object({
  language: ZCodeLanguage.describe("python (standard library only), javascript or typescript"),
  code: z.string().min(1).max(RUN_CODE_MAX_CHARS).describe("The program to run."),
  run_tests: z
    .boolean()
    .default(false)
    .describe("After the program, run its test_* functions (and unittest cases) and count them."),
});
export type TRunCodeInput = z.infer<typeof ZRunCodeInput>;

/** Tests that ran: how many, how many passed and failed, the failed ones' names. */
export const ZCodeChecks = z.object({
  ran: z.number().int().min(0),
  passed: z.number().int().min(0),
  failed: z.number().int().min(0),
  failures: z.array(z.string()),
});
export type TCodeChecks = z.infer<typeof ZCodeChecks>;

export const CODE_RUN_OUTCOMES = [
  "completed",
  "failed",
  "time_limit",
  "memory_limit",
  "output_limit",
  "stopped",
  "crashed",
] as const;
export const ZCodeRunOutcome = z.enum(CODE_RUN_OUTCOMES);

/** run_code's result as the UI and exports see it (a tool.result's data). */
export const ZRunCodeResultData = z.object({
  runner: z.enum(["embedded", "jupyter"]),
  language: ZCodeLanguage,
  outcome: ZCodeRunOutcome,
  exit_code: z.number().int().nullable(),
  duration_ms: z.number().int().min(0),
  stdout: z.string(),
  stderr: z.string(),
  checks: ZCodeChecks.nullable(),
  files: z.array(z.object({ name: z.string(), bytes: z.number().int().min(0) })),
  error: z.string().nullable(),
});
export type TRunCodeResultData = z.infer<typeof ZRunCodeResultData>;

/** "Ran 6 checks: 5 passed, 1 failed (test_overdue_fine)". */
export function describeChecks(checks: TCodeChecks): string {
  const noun = checks.ran === 1 ? "check" : "checks";
  if (checks.ran === 0) return "Ran no checks: the code has no tests";
  const failures =
    checks.failed > 0 && checks.failures.length > 0 ? ` (${checks.failures.join(", ")})` : "";
  return `Ran ${checks.ran} ${noun}: ${checks.passed} passed, ${checks.failed} failed${failures}`;
}
