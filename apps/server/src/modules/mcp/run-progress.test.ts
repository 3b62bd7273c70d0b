import type { TRunEvent } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { runProgressMessage } from "./run-progress";

const base = { seq: 1, session_id: "s", run_id: "r", at: "2026-01-01T00:00:00.000Z" };
const lane = {
  call_id: "c",
  step_id: "p1",
  role: "coder" as const,
  provider: null,
  simulated: null,
};
const usage = { input_tokens: 1, output_tokens: 1, credits: 0, latency_ms: null, ttft_ms: null };

function done(kind: "agent" | "critic" | "revision", status: "completed" | "failed" | "stopped") {
  return {
    ...base,
    ...lane,
    ...usage,
    type: "agent.done",
    kind,
    status,
    error:
      status === "failed" ? { code: "provider_error", message: "The provider timed out." } : null,
  } as TRunEvent;
}

describe("run progress lines", () => {
  it("names each agent's outcome, revisions apart, and leaves the Critic's lane to its verdict", () => {
    expect(runProgressMessage(done("agent", "completed"), false)).toBe("Coder done");
    expect(runProgressMessage(done("revision", "completed"), false)).toBe(
      "Coder revised its draft",
    );
    expect(runProgressMessage(done("agent", "failed"), false)).toBe(
      "Coder failed: The provider timed out.",
    );
    expect(runProgressMessage(done("agent", "stopped"), false)).toBe("Coder stopped");
    expect(runProgressMessage(done("critic", "completed"), false)).toBeNull();
  });

  it("reports the Critic's score or its absence, and the answer starting once", () => {
    const verdict = {
      ...base,
      type: "critic.verdict" as const,
      call_id: "c",
      bar: 7,
      draft_scores: {},
      revise_step_ids: [],
    };
    expect(runProgressMessage({ ...verdict, score: 5, verdict: "revise" }, false)).toBe(
      "Critic scored the drafts 5/10 (revision requested)",
    );
    expect(runProgressMessage({ ...verdict, score: null, verdict: "unscored" }, false)).toBe(
      "Critic reviewed the drafts (no score)",
    );
    const delta = { ...base, type: "final.delta", call_id: "c", text: "Hi" } as const;
    expect(runProgressMessage(delta, false)).toBe("Writing the final answer");
    expect(runProgressMessage(delta, true)).toBeNull();
  });
});
