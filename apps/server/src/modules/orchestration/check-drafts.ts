import { describeChecks, type TCodeChecks, type TCodeLanguage } from "@cohort/contracts";
import type { DraftText } from "./prompts";

/**
 * The evidence-based Critic (decision 062): before the Critic scores, the code in the drafts
 * is run with its tests, and what ran is part of the Critic's prompt, its verdict event and
 * the revision round. The engine receives the runner at registration (EngineDeps.code), so
 * it does not depend on the code-runner module.
 */
export interface CodeCheckPort {
  run(
    job: { language: TCodeLanguage; code: string; runTests: true },
    scope: { runId: string; stepId: string },
    signal: AbortSignal,
  ): Promise<{ checks: TCodeChecks | null; stdout: string; stderr: string; error: string | null }>;
}

export interface DraftEvidence {
  /** The checks of every draft that had code with tests, added up. */
  checks: TCodeChecks;
  /** For the Critic and the revision round: what ran, per draft, and how each failure read. */
  report: string;
}

const FENCE = /```([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)```/g;

const LANGUAGES: Record<string, TCodeLanguage> = {
  python: "python",
  py: "python",
  python3: "python",
  javascript: "javascript",
  js: "javascript",
  mjs: "javascript",
  typescript: "typescript",
  ts: "typescript",
};

const HAS_TESTS: Record<TCodeLanguage, RegExp> = {
  python: /^\s*(def\s+test\w*\s*\(|class\s+\w+\s*\(\s*(unittest\.)?TestCase\s*\))/m,
  javascript: /\bfunction\s+test\w*\s*\(/,
  typescript: /\bfunction\s+test\w*\s*\(/,
};

const EXPORT =
  /^export\s+(?:default\s+)?(?=(?:async\s+)?function\b|class\b|const\b|let\b|var\b|interface\b|type\b|enum\b)/gm;

/**
 * The program in a draft: its code blocks of the language it uses most, in order (the code,
 * then its tests), when they contain tests; null otherwise.
 */
export function codeOfDraft(text: string): { language: TCodeLanguage; code: string } | null {
  const blocks = new Map<TCodeLanguage, string[]>();
  for (const match of text.matchAll(FENCE)) {
    const language = LANGUAGES[(match[1] ?? "").toLowerCase()];
    if (!language) continue;
    blocks.set(language, [...(blocks.get(language) ?? []), match[2] ?? ""]);
  }
  const [language, parts] =
    [...blocks.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
  if (!language || !parts) return null;
  const joined = parts.join("\n\n");
  // The blocks run as one script: `export` (written for a module file) would be a syntax
  // error there, so it is dropped; what it exports stays defined (decision 068).
  const code = language === "python" ? joined : joined.replace(EXPORT, "");
  return HAS_TESTS[language].test(code) ? { language, code } : null;
}

/** Runs the drafts' code and tests; null when no draft has code with tests. */
export async function checkDrafts(
  port: CodeCheckPort,
  runId: string,
  drafts: readonly DraftText[],
  signal: AbortSignal,
): Promise<DraftEvidence | null> {
  const programs = drafts.flatMap((d) => {
    const program = codeOfDraft(d.text);
    return program ? [{ draft: d, program }] : [];
  });
  if (programs.length === 0) return null;
  const total: TCodeChecks = { ran: 0, passed: 0, failed: 0, failures: [] };
  const lines: string[] = [];
  for (const { draft, program } of programs) {
    const result = await port.run(
      { ...program, runTests: true },
      { runId, stepId: draft.stepId },
      signal,
    );
    if (result.checks) {
      total.ran += result.checks.ran;
      total.passed += result.checks.passed;
      total.failed += result.checks.failed;
      total.failures.push(...result.checks.failures);
      lines.push(`Draft ${draft.stepId}: ${describeChecks(result.checks)}.`);
      const failed = result.stderr
        .split("\n")
        .filter((l) => l.startsWith("FAILED "))
        .slice(0, 20);
      lines.push(...failed.map((l) => `  ${l}`));
    } else {
      // The program itself did not get to its tests: that failure is the evidence.
      const last = result.stderr.trim().split("\n").slice(-3).join("\n  ");
      lines.push(
        `Draft ${draft.stepId}: the code did not run to its tests: ${result.error ?? "it failed"}${last ? `\n  ${last}` : ""}`,
      );
    }
  }
  return { checks: total, report: lines.join("\n") };
}

/** The section the Critic and the revision round read. */
export function evidenceSection(evidence: DraftEvidence): string {
  return `Checks run on the drafts' code (the code and its tests were executed in a sandbox; this is evidence, not opinion — score correctness by it):\n${evidence.report}`;
}
