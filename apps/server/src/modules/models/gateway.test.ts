import { worstCaseCredits } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { simulatorOnlyConfig } from "../../../test/support/models-config";
import { AppError } from "../../platform/errors";
import { type CallSettledEvent, createModelGateway } from "./gateway";

/** The gateway without any provider key: every call goes to the simulator. */
const config = simulatorOnlyConfig;

const messages = [{ role: "user" as const, content: "Plan a small launch" }];

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("model gateway", () => {
  it("answers from the simulator and reports every field a caller needs", async () => {
    const settled: CallSettledEvent[] = [];
    const gateway = createModelGateway({ config: config(), onCallSettled: (e) => settled.push(e) });
    const deltas: string[] = [];
    const result = await gateway.streamModel({
      modelId: "coreason",
      role: "strategist",
      messages,
      onDelta: (d) => deltas.push(d),
    });
    expect(result).toMatchObject({
      modelId: "coreason",
      modelName: "CoReason",
      provider: "simulator",
      simulated: true,
      keySource: "simulator",
      finishReason: "stop",
      failedAttempts: 0,
      usageEstimated: false,
    });
    expect(deltas.join("")).toBe(result.text);
    expect(result.text).toMatch(/^## \S/);
    expect(result.credits).toBeGreaterThan(0);
    expect(result.ttftMs).not.toBeNull();
    expect(settled).toEqual([{ ok: true, input: expect.any(Object), result }]);
  });

  it("estimates a call's worst case for a credit reservation", () => {
    const gateway = createModelGateway({ config: config() });
    const estimate = gateway.estimateCall({
      modelId: "coquick",
      messages,
      maxOutputTokens: 100_000,
    });
    expect(estimate.maxOutputTokens).toBe(2048);
    expect(estimate.worstCaseCredits).toBe(
      worstCaseCredits(estimate.model, estimate.inputTokensEstimate, 2048),
    );
    expect(estimate).toMatchObject({ billable: true, simulated: true });
  });

  it("answers 404 for an unknown model", async () => {
    const gateway = createModelGateway({ config: config() });
    const error = await rejection(gateway.streamModel({ modelId: "gpt-99", messages }));
    expect(error).toMatchObject({ code: "model_not_found", statusCode: 404 });
  });

  it("stops a slow call at once when the caller aborts", async () => {
    const settled: CallSettledEvent[] = [];
    const gateway = createModelGateway({
      config: config({ simulatorTokensPerSecond: 20 }),
      onCallSettled: (e) => settled.push(e),
    });
    const controller = new AbortController();
    const call = gateway.streamModel({
      modelId: "codepth",
      messages,
      abortSignal: controller.signal,
      onDelta: () => controller.abort(),
    });
    const error = await rejection(call);
    expect(error).toMatchObject({ code: "model_call_aborted", statusCode: 499 });
    expect(settled[0]).toMatchObject({ ok: false });
    const already = await rejection(
      gateway.streamModel({ modelId: "coquick", messages, abortSignal: AbortSignal.abort() }),
    );
    expect(already.code).toBe("model_call_aborted");
  });

  it("times out a call that takes too long, even on the simulator", async () => {
    const gateway = createModelGateway({ config: config({ simulatorTokensPerSecond: 5 }) });
    const error = await rejection(
      gateway.streamModel({ modelId: "coreason", messages, timeoutMs: 150 }),
    );
    expect(error).toMatchObject({ code: "provider_timeout", statusCode: 504 });
  });

  it("lets a bug in the caller's onDelta surface as itself", async () => {
    const gateway = createModelGateway({ config: config() });
    const bug = new RangeError("consumer bug");
    await expect(
      gateway.streamModel({
        modelId: "coquick",
        messages,
        onDelta: () => {
          throw bug;
        },
      }),
    ).rejects.toBe(bug);
  });
});
