// @vitest-environment node
import { describe, expect, it } from "vitest";
import { browserApiDeps } from "../../lib/api/api";
import { createApiClient } from "../../lib/api/client";
import { fetchAgentRoles, fetchModels } from "./chat-api";

/**
 * The real API client and the real calls, given an HTTP layer that answers `status` with
 * `body`; what the client logs (the error texts: a warning per 4xx, an error per 5xx) is kept.
 */
function clientAnswering(status: number, body: unknown, headers: Record<string, string> = {}) {
  const logged: string[] = [];
  const log = (level: string) => () => void logged.push(level);
  const client = createApiClient(
    browserApiDeps({
      fetch: async () =>
        new Response(JSON.stringify(body), {
          status,
          headers: { "content-type": "application/json", ...headers },
        }),
      logger: { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") },
      sessionStorage: null,
      localStorage: null,
    }),
  );
  return { client, logged };
}

const signal = () => new AbortController().signal;

describe("the model and role catalogue calls (the error texts)", () => {
  it("resolve with empty models and roles when rate limited (429)", async () => {
    const limited = { error: { code: "rate_limited", message: "Too many requests." } };
    const { client } = clientAnswering(429, limited, { "retry-after": "30" });
    await expect(fetchModels(signal(), client)).resolves.toEqual({ models: [] });
    await expect(fetchAgentRoles(signal(), client)).resolves.toEqual({ roles: [] });
  });

  it("pass any other failure on", async () => {
    const down = { error: { code: "unavailable", message: "Down for a moment." } };
    const { client, logged } = clientAnswering(503, down);
    await expect(fetchModels(signal(), client)).rejects.toMatchObject({ status: 503 });
    expect(logged).toContain("error");
  });

  it("return the catalogue itself when it answers", async () => {
    const { client } = clientAnswering(200, { roles: [{ id: "coder" }] });
    await expect(fetchAgentRoles(signal(), client)).resolves.toEqual({
      roles: [{ id: "coder" }],
    });
  });
});
