import {
  APPROVAL_MESSAGES,
  COHORT_TEAM_MODEL,
  MCP_PATH,
  MCP_TOOLS,
  type TChatCompletion,
  type TMcpRunTeamOutput,
  type TRunEvent,
  type TRunEventOf,
} from "@cohort/contracts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAccessToken } from "./support/access-tokens";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { createSession, eventsOf, runToEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";
import { fakeDns } from "./support/sse";
import { addTestNotesProvider, type TestNotes } from "./support/tools";
import { type StandIn, startSite } from "./support/web-stand-ins";

/**
 * The engine's side of tools beyond the loop itself (decision 067), on the simulator: the
 * coordinator's plan names the tools each step expects and the lane uses only those; the
 * Critic may verify with reading tools, never act; a page the task names is a numbered source
 * of the run that the answer cites as [n]; and where nobody can approve (the public API, MCP
 * `run_team`), a call that needs approval is denied and the response says so.
 */
const RUN_MS = 60_000;
let t: TestApp;
let notes: TestNotes;
let site: StandIn;
let origin: string;

beforeAll(async () => {
  site = await startSite({
    "/owls": {
      body: `<!doctype html><html><head><title>Owls of the North</title></head><body><article><h1>Owls of the North</h1><p>${"The snowy owl hunts by day in the Arctic summer, when the sun never sets. ".repeat(6)}</p></article></body></html>`,
    },
  });
  t = await createTestApp(
    {
      SIMULATOR_TOKENS_PER_SECOND: "0",
      SIGNUP_CREDITS: "0",
      // Reachable if a call got through: the denial, not the network, keeps it unfetched.
      READ_URL_ALLOWED_NETWORKS: "127.0.0.1/32",
      // A loaded test machine extracts a page slowly; the deadline is not what is tested.
      READ_URL_TIMEOUT_MS: "60000",
    },
    { resolveHost: fakeDns({ "news.example.test": ["127.0.0.1"] }) },
  );
  notes = addTestNotesProvider(t.app);
  origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
}, 180_000);
afterAll(async () => {
  t?.app.server.closeAllConnections();
  await t?.close();
  await site?.close();
});

const pageUrl = () => `http://news.example.test:${site.port}/owls`;

async function payingUser() {
  const signed = await signUpWithCredits(t.app, 300);
  return signed;
}

async function strategistWith(client: TestClient, builtins: string[]) {
  return createSession(client, {
    manual_agent_selection: true,
    agent_preferences: { strategist: { enabled: true } },
    tools: { policy: "never_ask", roles: { strategist: { builtins, mcp_servers: [] } } },
  });
}

const readResults = (events: TRunEvent[]) =>
  events.filter(
    (e): e is TRunEventOf<"tool.result"> => e.type === "tool.result" && e.tool === "read_url",
  );

const planOf = (events: TRunEvent[]) => {
  const plan = eventsOf(events, "run.plan")[0]?.plan;
  if (!plan) throw new Error("the run has no plan");
  return plan;
};

describe("the plan names each step's tools", () => {
  it("from the tools its role may use; the Critic's only reading ones; the lanes call only those", async () => {
    const { client } = await payingUser();
    const notesTools = { builtins: ["create_note", "list_notes"], mcp_servers: [] };
    const session = await createSession(client, {
      manual_agent_selection: true,
      agent_preferences: {
        strategist: { enabled: true },
        coder: { enabled: true },
        critic: { enabled: true },
      },
      tools: {
        policy: "never_ask",
        roles: {
          strategist: { builtins: [], mcp_servers: [] },
          coder: notesTools,
          // The session lets the Critic have a write tool: it still only reads.
          critic: notesTools,
        },
      },
    });
    notes.calls.length = 0;
    const { run_id, events } = await runToEnd(
      client,
      session.id,
      "Create a note about the launch plan for the bakery, then list the notes.",
      RUN_MS,
    );
    expect(events.at(-1)?.type).toBe("run.completed");
    const steps = planOf(events).steps;
    const byRole = (role: string) => steps.filter((s) => s.role === role);
    // A role without tools gets no list; the Coder's names what its task needs, in its
    // role's order; the Critic's keeps the reading tool and never the write one.
    for (const step of byRole("strategist")) expect(step.tools).toBeUndefined();
    for (const step of byRole("coder")) expect(step.tools).toEqual(["create_note", "list_notes"]);
    expect(byRole("critic").map((s) => s.tools)).toEqual([["list_notes"]]);

    // The stored run shows the same plan.
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    const stored = detail.runs.find((r: { id: string }) => r.id === run_id);
    expect(stored.plan.steps.map((s: { tools?: string[] }) => s.tools)).toEqual(
      steps.map((s) => s.tools),
    );

    // Every call a lane made is one its step names.
    const named = new Map(steps.map((s) => [s.id, s.tools ?? []]));
    const calls = eventsOf(events, "tool.call");
    expect(calls.length).toBeGreaterThanOrEqual(1);
    for (const call of calls) expect(named.get(call.step_id)).toContain(call.tool);
    expect(calls.some((c) => c.kind === "critic" && c.tool === "create_note")).toBe(false);
  }, 120_000);

  it("offers a role no tools when the session gives it none: the plan names none", async () => {
    const { client } = await payingUser();
    const session = await createSession(client, {
      manual_agent_selection: true,
      agent_preferences: { coder: { enabled: true } },
      tools: { policy: "ask_risky", roles: { coder: { builtins: [], mcp_servers: [] } } },
    });
    const { events } = await runToEnd(
      client,
      session.id,
      "Create a note about the launch.",
      RUN_MS,
    );
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(planOf(events).steps.every((s) => s.tools === undefined)).toBe(true);
    expect(eventsOf(events, "tool.call")).toEqual([]);
  }, 120_000);
});

describe("where nobody can approve", () => {
  const task = () => `Read ${pageUrl()} and summarise what it says about snowy owls.`;

  it("the public API denies a call that needs approval, and its answer says so in tools_denied", async () => {
    const { client } = await payingUser();
    const { token } = await createTestAccessToken(client);
    site.reset();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/chat/completions",
      headers: { authorization: `Bearer ${token}` },
      payload: { model: COHORT_TEAM_MODEL, messages: [{ role: "user", content: task() }] },
    });
    expect(response.statusCode).toBe(200);
    const completion = response.json() as TChatCompletion;
    expect(completion.cohort?.status).toBe("completed");
    const denied = completion.cohort?.tools_denied ?? [];
    expect(denied.length).toBeGreaterThanOrEqual(1);
    for (const call of denied) {
      expect(call).toEqual({ tool: "read_url", note: APPROVAL_MESSAGES.unattendedNote });
    }
    // The page was never fetched.
    expect(site.requests).toEqual([]);
  }, 120_000);

  it("MCP run_team denies it too, and its structured output says so", async () => {
    const { client } = await payingUser();
    const { token } = await createTestAccessToken(client);
    site.reset();
    const mcp = new Client({ name: "cohort-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(MCP_PATH, origin), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const result = (await mcp.callTool(
        { name: MCP_TOOLS.runTeam, arguments: { task: task() } },
        undefined,
        { timeout: RUN_MS },
      )) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const output = result.structuredContent as TMcpRunTeamOutput;
      expect(output.status).toBe("completed");
      const denied = output.tools_denied ?? [];
      expect(denied.length).toBeGreaterThanOrEqual(1);
      for (const call of denied) {
        expect(call).toEqual({ tool: "read_url", note: APPROVAL_MESSAGES.unattendedNote });
      }
      expect(site.requests).toEqual([]);
    } finally {
      await mcp.close();
    }
  }, 120_000);

  it("a web session with the same task and never_ask reads the page: the denial was the channel's", async () => {
    const { client } = await payingUser();
    const session = await strategistWith(client, ["read_url"]);
    site.reset();
    const { events } = await runToEnd(client, session.id, task(), RUN_MS);
    const results = readResults(events);
    expect(results.length).toBeGreaterThanOrEqual(1);
    expect(results.map((r) => [r.status, r.error])).toEqual(results.map(() => ["completed", null]));
    expect(site.requests.length).toBe(results.length);
  }, 120_000);
});

describe("sources a tool found", () => {
  it("are numbered by the run, cited by the lane as [n], and the answer cites them with their address", async () => {
    const { client } = await payingUser();
    const session = await strategistWith(client, ["read_url"]);
    const url = pageUrl();
    const { run_id, events } = await runToEnd(
      client,
      session.id,
      `Read ${url} and summarise what it says about snowy owls.`,
      RUN_MS,
    );
    expect(events.at(-1)?.type).toBe("run.completed");
    const [read] = readResults(events);
    expect(read?.sources).toEqual([{ n: 1, title: "Owls of the North", url }]);
    const source = {
      n: 1,
      chunk_id: `url:${url}`,
      document_id: "",
      document_name: "Owls of the North",
      page: null,
      section: null,
      text: expect.stringContaining("The snowy owl hunts by day"),
      url,
    };
    // The lane that read it cites it as [1]: its step counts it given and cited.
    const lane = eventsOf(events, "agent.done").find((e) => e.call_id === read?.call_id);
    expect(lane?.cited).toEqual([1]);
    // The answer cites the page as the run's source [1], with its address.
    const end = eventsOf(events, "run.completed")[0];
    expect(end?.message.content).toMatch(/\[1\]/);
    expect(end?.citations).toEqual([source]);
    // And so does the stored run, after a reload.
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    const run = detail.runs.find((r: { id: string }) => r.id === run_id);
    expect(run.passages).toEqual([source]);
    expect(run.cited).toEqual([1]);
    const step = run.steps.find((s: { id: string }) => s.id === read?.call_id);
    expect(step).toMatchObject({ passages: [1], cited: [1] });
  }, 120_000);
});
