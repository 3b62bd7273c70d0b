import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import {
  ACCESS_TOKEN_MESSAGES,
  MCP_BODY_LIMIT_BYTES,
  MCP_PATH,
  MCP_TOOLS,
  type TMcpGetSessionOutput,
  type TMcpListSessionsOutput,
  type TMcpRunTeamOutput,
  type TRun,
} from "@cohort/contracts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { createTestAccessToken } from "./support/access-tokens";
import { createTestApp, createTestDb, type TestApp, testConfig, testDbKind } from "./support/app";
import type { TestClient } from "./support/client";
import { balanceOf, signUpWithCredits } from "./support/runs-credits";

/**
 * The MCP server through the SDK's own client, over a real socket on loopback: the
 * streamable HTTP transport, progress notifications on the call's SSE stream, cancellation.
 */
const PUBLIC_URL = "https://cohort.example";
let t: TestApp;
let baseUrl: URL;

beforeAll(async () => {
  t = await createTestApp({
    SIMULATOR_TOKENS_PER_SECOND: "0",
    SIGNUP_CREDITS: "0",
    PUBLIC_URL,
  });
  const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseUrl = new URL(MCP_PATH, address);
});
afterAll(() => t.close());

interface Member {
  client: TestClient;
  userId: string;
  token: string;
}

async function member(
  app: TestApp,
  options: { credits?: number; scopes?: ("chat" | "sessions:read")[] } = {},
): Promise<Member> {
  const signed = await signUpWithCredits(app.app, options.credits ?? 200);
  const created = await createTestAccessToken(signed.client, {
    ...(options.scopes ? { scopes: options.scopes } : {}),
  });
  return { client: signed.client, userId: signed.user.id, token: created.token };
}

async function connect(url: URL, token: string): Promise<Client> {
  const client = new Client({ name: "cohort-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

function errorText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  const [first] = result.content;
  return first?.type === "text" ? first.text : "";
}

async function sessionDetail(client: TestClient, sessionId: string) {
  const response = await client.get(`/api/sessions/${sessionId}`);
  expect(response.statusCode).toBe(200);
  return response.json() as { messages: { role: string; content: string }[]; runs: TRun[] };
}

describe("the MCP server", () => {
  it("lists its tools with strict input schemas", async () => {
    const me = await member(t);
    const mcp = await connect(baseUrl, me.token);
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        MCP_TOOLS.getSession,
        MCP_TOOLS.listSessions,
        MCP_TOOLS.runTeam,
        MCP_TOOLS.searchDocuments,
      ].sort(),
    );
    const runTeam = tools.find((tool) => tool.name === MCP_TOOLS.runTeam);
    expect(runTeam?.inputSchema.required).toEqual(["task"]);
    expect(runTeam?.inputSchema).toMatchObject({ additionalProperties: false });
    expect(Object.keys(runTeam?.inputSchema.properties ?? {}).sort()).toEqual([
      "document_ids",
      "task",
    ]);
    expect(runTeam?.outputSchema?.properties).toHaveProperty("run_url");
    await mcp.close();
  });

  it("runs the team with progress notifications, then answers with the run's link, cost and score", async () => {
    const me = await member(t);
    const before = await balanceOf(t.app, me.userId);
    const mcp = await connect(baseUrl, me.token);
    const progress: Progress[] = [];
    const result = (await mcp.callTool(
      { name: MCP_TOOLS.runTeam, arguments: { task: "Design a landing page for a bakery" } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    )) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent as TMcpRunTeamOutput;
    expect(output).toMatchObject({ status: "completed", error: null });
    expect(output.answer?.length).toBeGreaterThan(0);
    expect(output.run_url).toBe(`${PUBLIC_URL}/chat/${output.session_id}`);
    expect(output.credits).toBeGreaterThan(0);
    const [text] = result.content;
    expect(text?.type === "text" && text.text).toContain(output.run_url);

    // Milestones in order: the plan, each agent, the Critic, the answer starting.
    const messages = progress.map((p) => p.message ?? "");
    expect(messages[0]).toMatch(/^Plan made: \d+ steps? \(/);
    expect(messages.some((m) => / done$/.test(m))).toBe(true);
    expect(messages.some((m) => m.startsWith("Critic "))).toBe(true);
    expect(messages.at(-1)).toBe("Writing the final answer");
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));

    // The run is an ordinary session of the token's owner, charged to them.
    const detail = await sessionDetail(me.client, output.session_id);
    expect(detail.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(detail.messages[0]?.content).toBe("Design a landing page for a bakery");
    expect(detail.messages[1]?.content).toBe(output.answer);
    expect(detail.runs[0]).toMatchObject({
      id: output.run_id,
      status: "completed",
      total_credits: output.credits,
      critic_score: output.critic_score,
    });
    const after = await balanceOf(t.app, me.userId);
    expect(after.balance).toBeCloseTo(before.balance - output.credits, 2);
    expect(after.held).toBe(0);
    await mcp.close();
  });

  it("lists and reads the owner's sessions, and nobody else's", async () => {
    const me = await member(t);
    const mcp = await connect(baseUrl, me.token);
    const run = (await mcp.callTool({
      name: MCP_TOOLS.runTeam,
      arguments: { task: "Summarise the benefits of unit tests\nin three bullet points" },
    })) as CallToolResult;
    const { session_id, run_id, answer } = run.structuredContent as TMcpRunTeamOutput;

    const listed = (await mcp.callTool({
      name: MCP_TOOLS.listSessions,
      arguments: { limit: 5 },
    })) as CallToolResult;
    const list = listed.structuredContent as TMcpListSessionsOutput;
    expect(list.total).toBe(1);
    expect(list.sessions).toEqual([
      expect.objectContaining({
        id: session_id,
        title: "Summarise the benefits of unit tests",
        url: `${PUBLIC_URL}/chat/${session_id}`,
      }),
    ]);

    const read = (await mcp.callTool({
      name: MCP_TOOLS.getSession,
      arguments: { session_id },
    })) as CallToolResult;
    const session = read.structuredContent as TMcpGetSessionOutput;
    expect(session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(session.runs).toEqual([
      expect.objectContaining({ id: run_id, status: "completed", answer }),
    ]);

    // Another user's token: the same answer as for a session that does not exist.
    const stranger = await member(t);
    const theirs = await connect(baseUrl, stranger.token);
    const refused = (await theirs.callTool({
      name: MCP_TOOLS.getSession,
      arguments: { session_id },
    })) as CallToolResult;
    expect(errorText(refused)).toBe("This session does not exist.");
    expect(refused.structuredContent).toBeUndefined();
    const theirList = (await theirs.callTool({
      name: MCP_TOOLS.listSessions,
      arguments: {},
    })) as CallToolResult;
    expect((theirList.structuredContent as TMcpListSessionsOutput).sessions).toEqual([]);
    await Promise.all([mcp.close(), theirs.close()]);
  });

  it("refuses a tool the token's scopes do not cover, and arguments it does not know", async () => {
    const reader = await member(t, { scopes: ["sessions:read"] });
    const mcp = await connect(baseUrl, reader.token);
    const refused = (await mcp.callTool({
      name: MCP_TOOLS.runTeam,
      arguments: { task: "Write a haiku" },
    })) as CallToolResult;
    expect(errorText(refused)).toBe(ACCESS_TOKEN_MESSAGES.insufficientScope("chat"));
    const listed = (await mcp.callTool({ name: MCP_TOOLS.listSessions })) as CallToolResult;
    expect((listed.structuredContent as TMcpListSessionsOutput).total).toBe(0);

    const chatter = await member(t, { scopes: ["chat"] });
    const chat = await connect(baseUrl, chatter.token);
    const reading = (await chat.callTool({ name: MCP_TOOLS.listSessions })) as CallToolResult;
    expect(errorText(reading)).toBe(ACCESS_TOKEN_MESSAGES.insufficientScope("sessions:read"));
    // Templates do not exist yet: the argument is refused by name, not ignored.
    const templated = (await chat.callTool({
      name: MCP_TOOLS.runTeam,
      arguments: { task: "Write a haiku", template: "poetry" },
    })) as CallToolResult;
    expect(errorText(templated)).toContain("template");
    expect((await chatter.client.get("/api/sessions")).json().total).toBe(0);
    await Promise.all([mcp.close(), chat.close()]);
  });

  it("answers a missing or bad token with 401 and a Bearer challenge", async () => {
    for (const authorization of [undefined, "Bearer cohort_pat_not-a-real-token"]) {
      const response = await fetch(baseUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="cohort"');
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_access_token");
    }
    // The SDK's client sees the same refusal (its error carries the status).
    await expect(connect(baseUrl, "cohort_pat_not-a-real-token")).rejects.toMatchObject({
      code: 401,
    });
  });

  it("refuses a run the balance cannot start, leaving no session behind", async () => {
    const broke = await member(t, { credits: 0 });
    const mcp = await connect(baseUrl, broke.token);
    const result = (await mcp.callTool({
      name: MCP_TOOLS.runTeam,
      arguments: { task: "Plan a trip to Lisbon" },
    })) as CallToolResult;
    expect(errorText(result)).toMatch(/credits/i);
    expect((await broke.client.get("/api/sessions")).json().total).toBe(0);
    await mcp.close();
  });

  it("is in the API reference with bearer security, beside the OpenAI-compatible routes", async () => {
    const document = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json() as {
      paths: Record<string, Record<string, { security?: unknown; tags?: string[] }>>;
    };
    for (const [path, method] of [
      [MCP_PATH, "post"],
      ["/api/v1/chat/completions", "post"],
      ["/api/v1/models", "get"],
    ] as const) {
      expect(document.paths[path]?.[method]?.security, path).toEqual([{ bearer: [] }]);
    }
    expect(document.paths[MCP_PATH]?.post?.tags).toEqual(["mcp"]);
    // Cookie routes keep the default (no per-operation override).
    expect(document.paths["/api/sessions"]?.get?.security).toBeUndefined();
  });

  it("refuses a body over the limit before reading it as JSON-RPC", async () => {
    const me = await member(t);
    const response = await fetch(baseUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${me.token}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "ping",
        params: { pad: "x".repeat(MCP_BODY_LIMIT_BYTES) },
      }),
    });
    expect(response.status).toBe(413);
  });

  it("has no standalone stream: GET and DELETE answer 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(baseUrl, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });
});

describe("cancelling run_team", () => {
  let slow: TestApp;
  let slowUrl: URL;
  beforeAll(async () => {
    slow = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "40", SIGNUP_CREDITS: "0" });
    slowUrl = new URL(MCP_PATH, await slow.app.listen({ port: 0, host: "127.0.0.1" }));
  });
  afterAll(() => slow.close());

  async function startAndStopAtPlan(stop: (mcp: Client, abort: AbortController) => Promise<void>) {
    const me = await member(slow);
    const mcp = await connect(slowUrl, me.token);
    const abort = new AbortController();
    let planned!: () => void;
    const plan = new Promise<void>((resolve) => {
      planned = resolve;
    });
    const call = mcp.callTool(
      { name: MCP_TOOLS.runTeam, arguments: { task: "Write a long essay on bridges" } },
      undefined,
      {
        signal: abort.signal,
        onprogress: (p) => {
          if (p.message?.startsWith("Plan made")) planned();
        },
      },
    );
    const settled = call.then(
      () => "answered",
      () => "rejected",
    );
    await plan;
    await stop(mcp, abort);
    expect(await settled).toBe("rejected");
    return { me, mcp };
  }

  async function expectStopped({ me, mcp }: { me: Member; mcp: Client }) {
    const sessions = (await me.client.get("/api/sessions")).json().sessions as { id: string }[];
    const [session] = sessions;
    for (;;) {
      const detail = await sessionDetail(me.client, session?.id ?? "");
      const status = detail.runs[0]?.status;
      if (status === "cancelled") break;
      expect(["queued", "planning", "running", "reviewing", "synthesizing"]).toContain(status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const balance = await balanceOf(slow.app, me.userId);
    expect(balance.held).toBe(0);
    await mcp.close();
  }

  it("stops the run when the client cancels the call", async () => {
    // The SDK sends notifications/cancelled in a POST of its own and keeps the call's stream.
    const started = await startAndStopAtPlan(async (_mcp, abort) => {
      abort.abort("changed my mind");
    });
    await expectStopped(started);
  });

  it("stops the run when the client goes away", async () => {
    const started = await startAndStopAtPlan(async (mcp) => {
      await mcp.close();
    });
    await expectStopped(started);
  });
});

describe.runIf(testDbKind === "postgres" && Boolean(process.env.TEST_REDIS_URL))(
  "cancelling run_team across instances",
  () => {
    // Two instances and a database of their own are built inside the test: on a loaded CI
    // machine that alone took most of the default 30 s.
    it("stops the call when the client's cancel reaches another instance than the call", async () => {
      const testDb = await createTestDb();
      const prefix = `test:${randomBytes(6).toString("hex")}:`;
      const env = testConfig({ SIMULATOR_TOKENS_PER_SECOND: "40", SIGNUP_CREDITS: "0" });
      const a = await buildApp(env, { db: testDb.db, redisPrefix: prefix });
      const b = await buildApp(env, { db: testDb.db, redisPrefix: prefix });
      // A load balancer without stickiness: the cancel (a POST of its own) goes to B.
      const targets = {
        a: new URL(await a.listen({ port: 0, host: "127.0.0.1" })),
        b: new URL(await b.listen({ port: 0, host: "127.0.0.1" })),
      };
      const routed: string[] = [];
      const proxy = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          const body = Buffer.concat(chunks);
          const to = body.includes("notifications/cancelled") ? "b" : "a";
          routed.push(to);
          const upstream = httpRequest(
            {
              host: "127.0.0.1",
              port: targets[to].port,
              path: request.url,
              method: request.method,
              headers: request.headers,
            },
            (answer) => {
              response.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(response);
            },
          );
          upstream.end(body);
        });
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      const { port } = proxy.address() as AddressInfo;
      try {
        const signed = await signUpWithCredits(a, 200);
        const { token } = await createTestAccessToken(signed.client, {});
        const mcp = await connect(new URL(MCP_PATH, `http://127.0.0.1:${port}`), token);
        const abort = new AbortController();
        let planned!: () => void;
        const plan = new Promise<void>((resolve) => {
          planned = resolve;
        });
        const settled = mcp
          .callTool(
            { name: MCP_TOOLS.runTeam, arguments: { task: "Write a long essay on bridges" } },
            undefined,
            {
              signal: abort.signal,
              onprogress: (p) => {
                if (p.message?.startsWith("Plan made")) planned();
              },
            },
          )
          .then(
            () => "answered",
            () => "rejected",
          );
        await plan;
        abort.abort("changed my mind");
        expect(await settled).toBe("rejected");
        const sessions = (await signed.client.get("/api/sessions")).json().sessions as {
          id: string;
        }[];
        const deadline = Date.now() + 30_000;
        for (;;) {
          const detail = await sessionDetail(signed.client, sessions[0]?.id ?? "");
          if (detail.runs[0]?.status === "cancelled") break;
          if (Date.now() > deadline) throw new Error(`the run is still ${detail.runs[0]?.status}`);
          expect(["queued", "planning", "running", "reviewing", "synthesizing"]).toContain(
            detail.runs[0]?.status,
          );
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(routed).toContain("b");
        expect((await balanceOf(a, signed.user.id)).held).toBe(0);
        await mcp.close();
      } finally {
        proxy.close();
        await a.close();
        await b.close();
        await testDb.drop();
      }
    }, 120_000);
  },
);
