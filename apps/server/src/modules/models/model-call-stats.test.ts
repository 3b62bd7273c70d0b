import { describe, expect, it } from "vitest";
import { AppError } from "../../platform/errors";
import type { CallSettledEvent, ModelCallResult } from "./gateway";
import { createModelCallStats } from "./model-call-stats";

const input = (modelId: string) => ({ modelId, messages: [] }) as CallSettledEvent["input"];

function success(modelId: string, latencyMs: number): CallSettledEvent {
  return {
    ok: true,
    input: input(modelId),
    result: { latencyMs, usage: { inputTokens: 10, outputTokens: 20 } } as ModelCallResult,
  };
}

describe("model call stats", () => {
  it("counts calls and failures per model, busiest first, with latency percentiles", () => {
    const stats = createModelCallStats(() => new Date("2026-11-23T00:00:00Z"));
    for (let ms = 1; ms <= 100; ms++) stats.record(success("gpt-4.1", ms));
    stats.record(success("coreason", 50));
    stats.record({
      ok: false,
      input: input("coreason"),
      error: new AppError("provider_error", 502, "OpenAI did not answer."),
    });
    expect(stats.read()).toEqual([
      {
        model_id: "gpt-4.1",
        calls: 100,
        errors: 0,
        latency_ms_p50: 50,
        latency_ms_p95: 95,
        last_error: null,
      },
      {
        model_id: "coreason",
        calls: 2,
        errors: 1,
        latency_ms_p50: 50,
        latency_ms_p95: 50,
        last_error: {
          code: "provider_error",
          message: "OpenAI did not answer.",
          at: "2026-11-23T00:00:00.000Z",
        },
      },
    ]);
  });
});
