// @vitest-environment node
import { afterEach, describe, expect, it, vi } from "vitest";
import { expectConsoleError } from "../../../../../test-support/fail-on-console-error";
import { fetchAgentRoles, fetchModels } from "./chat-api";

/** The real client and the real calls; only the network answers are made up here. */
function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () =>
        new Response(JSON.stringify(body), {
          status,
          headers: { "content-type": "application/json", ...headers },
        }),
    ),
  );
}

const quiet: { mockRestore(): void }[] = [];
/** The client logs a warning for each refusal, as spec §8 asks; not in the test's output. */
function silenceWarnings() {
  quiet.push(vi.spyOn(console, "warn").mockImplementation(() => undefined));
}

afterEach(() => {
  vi.unstubAllGlobals();
  for (const spy of quiet.splice(0)) spy.mockRestore();
});

describe("the model and role catalogue calls (spec §8)", () => {
  it("resolve with empty models and roles when rate limited (429)", async () => {
    silenceWarnings();
    const limited = { error: { code: "rate_limited", message: "Too many requests." } };
    answer(429, limited, { "retry-after": "30" });
    await expect(fetchModels(new AbortController().signal)).resolves.toEqual({ models: [] });
    await expect(fetchAgentRoles(new AbortController().signal)).resolves.toEqual({ roles: [] });
  });

  it("pass any other failure on", async () => {
    silenceWarnings();
    expectConsoleError(); // spec §8: a 5xx is logged as a server error
    answer(503, { error: { code: "unavailable", message: "Down for a moment." } });
    await expect(fetchModels(new AbortController().signal)).rejects.toMatchObject({ status: 503 });
  });

  it("return the catalogue itself when it answers", async () => {
    answer(200, { roles: [{ id: "coder" }] });
    await expect(fetchAgentRoles(new AbortController().signal)).resolves.toEqual({
      roles: [{ id: "coder" }],
    });
  });
});
