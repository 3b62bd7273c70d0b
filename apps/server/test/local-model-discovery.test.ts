import { createServer } from "node:net";
import type { TLocalModelServersResponse, TModel, TRun } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import { createSession, eventsOf, runToEnd } from "./support/runs";

/**
 * Local model servers are found, not configured (decision 056): a stand-in that speaks
 * Ollama's OpenAI-compatible API (its `/v1/models` with Ollama's `owned_by`, and streamed
 * chat completions) on a loopback port the test names in LOCAL_MODEL_PORTS.
 */
let ollama: FakeProviderServer;
let ollamaPort: number;

const OLLAMA_MODELS = [
  { id: "llama3.2:3b", owned_by: "library" },
  { id: "qwen2.5-coder:7b", owned_by: "library" },
  { id: "nomic-embed-text:latest", owned_by: "library" },
];

const PLAN = {
  rationale: "One Coder step is enough.",
  steps: [{ id: "s1", role: "coder", task: "Write the loan check", dependsOn: [] }],
};

beforeAll(async () => {
  ollama = await FakeProviderServer.start();
  ollama.models = OLLAMA_MODELS;
  ollamaPort = Number(new URL(ollama.url).port);
});
afterAll(() => ollama?.close());

/** A loopback port nothing listens on (it was free a moment ago). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 1));
    });
  });
}

async function catalogueIds(t: TestApp): Promise<string[]> {
  const response = await t.app.inject({ method: "GET", url: "/api/ai/models" });
  return (response.json().models as TModel[]).map((m) => m.id);
}

describe("local model servers found on loopback ports", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      LOCAL_MODEL_DISCOVERY: "1",
      LOCAL_MODEL_PORTS: `${ollamaPort}=Ollama`,
      SIGNUP_CREDITS: "0",
    });
    await t.app.ready();
  });
  afterAll(() => t?.close());

  it("offers the server's chat models at start as free local models every role can use", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/ai/models" });
    const local = (response.json().models as TModel[]).filter((m) => m.kind === "local");
    expect(local.map((m) => [m.id, m.name, m.source, m.simulated])).toEqual([
      ["local:llama3.2:3b", "Local: llama3.2:3b (Ollama)", "local_server", false],
      ["local:qwen2.5-coder:7b", "Local: qwen2.5-coder:7b (Ollama)", "local_server", false],
    ]);
    expect(local[0]?.price).toEqual({ input_per_1k: 0, output_per_1k: 0 });
    const roles = (await t.app.inject({ method: "GET", url: "/api/ai/agent-roles" })).json()
      .roles as { id: string; suitable_models: string[] }[];
    for (const role of roles) expect(role.suitable_models).toContain("local:llama3.2:3b");
    const cochat = (await t.app.inject({ method: "GET", url: "/api/cochat/models" })).json();
    expect(JSON.stringify(cochat)).toContain("local:llama3.2:3b");
  });

  it("answers a whole run from the local server, for no credits", async () => {
    const { client } = await signUp(t.app);
    ollama.reset();
    ollama.next({ json: PLAN });
    ollama.defaultReply = { text: "function canBorrow(member) { return member.loans < 5; }" };
    const local = { enabled: true, model: "local:llama3.2:3b" };
    const session = await createSession(client, {
      coordinator_model: "local:llama3.2:3b",
      agent_preferences: { strategist: local, coder: local, designer: local, critic: local },
    });
    const { events } = await runToEnd(client, session.id, "Check whether a member may borrow");
    expect(events.at(-1)?.type).toBe("run.completed");
    // The plan, the Coder's step and the answer that closes the run: all on the local server.
    expect(ollama.requests.length).toBeGreaterThanOrEqual(2);
    for (const request of ollama.requests) {
      expect([request.method, request.path, request.body.model]).toEqual([
        "POST",
        "/v1/chat/completions",
        "llama3.2:3b",
      ]);
    }
    const run = (await client.get(`/api/sessions/${session.id}`)).json().runs.at(-1) as TRun;
    expect(run.total_credits).toBe(0);
    const agentSteps = run.steps.filter((s) => s.role !== null);
    expect(agentSteps.map((s) => [s.role, s.model, s.output])).toEqual([
      ["coder", "local:llama3.2:3b", "function canBorrow(member) { return member.loans < 5; }"],
    ]);
    expect(eventsOf(events, "credits.changed")).toEqual([]);
  });

  it("tells Settings which servers it found, and finds a server started later on Look again", async () => {
    const { client } = await signUp(t.app);
    const anonymous = await t.app.inject({ method: "GET", url: "/api/models/local-servers" });
    expect(anonymous.statusCode).toBe(401);
    const found = (
      await client.get("/api/models/local-servers")
    ).json() as TLocalModelServersResponse;
    expect(found.discovery).toBe("on");
    expect(found.servers).toEqual([
      {
        name: "Ollama",
        port: ollamaPort,
        models: [
          { id: "local:llama3.2:3b", name: "Local: llama3.2:3b (Ollama)" },
          { id: "local:qwen2.5-coder:7b", name: "Local: qwen2.5-coder:7b (Ollama)" },
        ],
      },
    ]);

    ollama.models = [...OLLAMA_MODELS, { id: "mistral:7b", owned_by: "library" }];
    expect(await catalogueIds(t)).not.toContain("local:mistral:7b");
    const again = await client.post("/api/models/local-servers/look-again", {});
    expect(again.statusCode).toBe(200);
    expect((again.json() as TLocalModelServersResponse).servers[0]?.models.at(-1)).toEqual({
      id: "local:mistral:7b",
      name: "Local: mistral:7b (Ollama)",
    });
    expect(await catalogueIds(t)).toContain("local:mistral:7b");
    ollama.models = OLLAMA_MODELS;
  });
});

describe("when discovery does not run", () => {
  it("finds nothing with LOCAL_MODEL_DISCOVERY=0, even with a server on the port", async () => {
    const t = await createTestApp({
      LOCAL_MODEL_DISCOVERY: "0",
      LOCAL_MODEL_PORTS: `${ollamaPort}=Ollama`,
    });
    try {
      await t.app.ready();
      expect((await catalogueIds(t)).filter((id) => id.startsWith("local:"))).toEqual([]);
      const { client } = await signUp(t.app);
      const answer = (await client.post("/api/models/local-servers/look-again", {})).json();
      expect(answer).toEqual({ discovery: "off", servers: [], looked_at: null });
    } finally {
      await t.close();
    }
  });

  it("leaves OPENAI_COMPATIBLE_BASE_URL in charge when it is set", async () => {
    const t = await createTestApp({
      LOCAL_MODEL_DISCOVERY: "1",
      LOCAL_MODEL_PORTS: `${ollamaPort}=Ollama`,
      OPENAI_COMPATIBLE_BASE_URL: ollama.baseUrls.openaiCompatible,
      OPENAI_COMPATIBLE_MODELS: "llama3.2:3b",
    });
    try {
      await t.app.ready();
      const local = (
        (await t.app.inject({ method: "GET", url: "/api/ai/models" })).json().models as TModel[]
      ).filter((m) => m.kind === "local");
      expect(local.map((m) => [m.id, m.name])).toEqual([
        ["local:llama3.2:3b", "llama3.2:3b (local)"],
      ]);
      const { client } = await signUp(t.app);
      expect((await client.get("/api/models/local-servers")).json().discovery).toBe("configured");
    } finally {
      await t.close();
    }
  });

  it("names a server by its answer on an unnamed port, and ignores a closed port at once", async () => {
    const closed = await closedPort();
    const t = await createTestApp({
      LOCAL_MODEL_DISCOVERY: "1",
      LOCAL_MODEL_PORTS: `${closed},${ollamaPort}`,
    });
    try {
      await t.app.ready();
      const { client } = await signUp(t.app);
      const found = (
        await client.get("/api/models/local-servers")
      ).json() as TLocalModelServersResponse;
      expect(found.servers.map((s) => [s.name, s.port])).toEqual([["Ollama", ollamaPort]]);
    } finally {
      await t.close();
    }
  });
});
