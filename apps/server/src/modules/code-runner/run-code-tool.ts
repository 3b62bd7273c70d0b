import {
  describeChecks,
  type TRunCodeInput,
  type TRunCodeResultData,
  ZRunCodeInput,
} from "@cohort/contracts";
import type { CodeRunnerConfig } from "../../config";
import type { ToolDefinition, ToolOutput, ToolProvider } from "../tools/tool-definition";
import type { KeptCodeFile } from "./code-files";
import type { CodeRunner } from "./code-runner";
import type { SandboxResult } from "./sandbox";

/** What the model reads of stdout and stderr each; the UI's data keeps as much. */
const STREAM_CHARS = 6000;

function clip(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}\n… (${text.length - max} more characters)`;
}

/** The model's reading of a run: status, checks, output, files. */
export function runCodeText(language: string, r: SandboxResult): string {
  const seconds = (r.durationMs / 1000).toFixed(2);
  const lines = [
    r.outcome === "completed"
      ? `Ran ${language}: exit status 0 in ${seconds} s.`
      : `Ran ${language} in ${seconds} s. ${r.error ?? r.outcome}`,
  ];
  if (r.checks) lines.push(`${describeChecks(r.checks)}.`);
  if (r.stdout) lines.push("stdout:", clip(r.stdout, STREAM_CHARS));
  if (r.stderr) lines.push("stderr:", clip(r.stderr, STREAM_CHARS));
  if (!r.stdout && !r.stderr) lines.push("(no output)");
  if (r.files.length > 0) {
    lines.push(
      `Files written to the run's scratch folder: ${r.files.map((f) => `${f.name} (${f.content.byteLength} bytes)`).join(", ")}.`,
    );
  }
  return lines.join("\n");
}

export function runCodeData(
  runner: "embedded" | "jupyter",
  input: TRunCodeInput,
  r: SandboxResult,
): TRunCodeResultData {
  return {
    runner,
    language: input.language,
    outcome: r.outcome,
    exit_code: r.exitCode,
    duration_ms: r.durationMs,
    stdout: clip(r.stdout, STREAM_CHARS),
    stderr: clip(r.stderr, STREAM_CHARS),
    checks: r.checks,
    files: r.files.map((f) => ({ name: f.name, bytes: f.content.byteLength })),
    error: r.error,
  };
}

/** Keeps the files a run wrote for download (decision 068); absent: listed only. */
export type KeepFiles = (
  owner: { sessionId: string; runId: string; callId: string },
  files: SandboxResult["files"],
) => Promise<KeptCodeFile[]>;

export function runCodeTool(
  runner: CodeRunner,
  timeoutMs: number,
  keepFiles?: KeepFiles,
): ToolDefinition<TRunCodeInput> {
  return {
    name: "run_code",
    title: "Run code",
    description:
      "Runs a Python (standard library only), JavaScript or TypeScript program in a sandbox with no network, " +
      "and returns its output, exit status and any files it wrote. Files in the run's scratch folder (written by " +
      "earlier run_code calls of this run) are in the working directory; Python writes with open(), JavaScript " +
      "with writeFile(name, text) and reads with readFile(name). Set run_tests to run the program's test_* " +
      "functions and count passes and failures.",
    input: { kind: "zod", schema: ZRunCodeInput },
    risk: "costly",
    source: { kind: "builtin" },
    price: runner.hold,
    untrustedOutput: false,
    // Starting a sandbox on a busy machine is outside the run's own time limit.
    timeoutMs: timeoutMs + 120_000,
    async execute(input, ctx): Promise<ToolOutput> {
      const dir = await ctx.scratchDir();
      const result = await runner.run(
        { language: input.language, code: input.code, files: [], runTests: input.run_tests },
        { dir, folder: ctx.runId },
        ctx.signal,
      );
      const kept =
        keepFiles && result.files.length > 0
          ? await keepFiles(
              { sessionId: ctx.sessionId, runId: ctx.runId, callId: ctx.callId },
              result.files,
            )
          : [];
      return {
        text: runCodeText(input.language, result),
        data: runCodeData(runner.runner, input, result),
        ...(kept.length > 0 ? { files: kept } : {}),
        creditsUsed: runner.price(result.durationMs),
        isError: result.outcome !== "completed" && result.outcome !== "failed",
      };
    },
  };
}

/** The "code" provider: run_code for every run. */
export function codeToolProvider(
  runner: CodeRunner,
  config: CodeRunnerConfig,
  keepFiles?: KeepFiles,
): ToolProvider {
  const tool = runCodeTool(runner, config.timeoutMs, keepFiles) as unknown as ToolDefinition;
  return {
    id: "code",
    async tools() {
      return [tool];
    },
  };
}
