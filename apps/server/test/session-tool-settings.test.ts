import {
  TEMPLATE_ROUTES,
  TOOL_SETTINGS_ERROR_CODES,
  TOOL_SETTINGS_MESSAGES,
  type TRunToolCall,
  type TSession,
  type TSessionDetailResponse,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NotesServer, startNotesServer } from "../../../test-support/mcp-notes-server";
import { adminClient, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { createSession, runToEnd } from "./support/runs";
import { setCredits } from "./support/runs-credits";

/**
 * Who may use which tools, per role (decision 066): a session's or template's choice names
 * only built-ins Cohort has and MCP servers the person can offer in that workspace; anything
 * else is a 400 in the standard error shape that changes nothing. And a finished run's tool
 * calls come back with the session (`runs[].tool_calls`), so its lane rows survive a reload.
 */

const ADMIN = { ADMIN_EMAIL: "admin@tool-settings.test", ADMIN_PASSWORD: "tool-settings-admin" };
let t: TestApp;
let notes: NotesServer;

beforeAll(async () => {
  notes = await startNotesServer();
  t = await createTestApp({
    ...ADMIN,
    SIMULATOR_TOKENS_PER_SECOND: "0",
    SIGNUP_CREDITS: "0",
    USER_BASE_URL_ALLOWED_NETWORKS: "127.0.0.1/32",
  });
}, 240_000);
afterAll(async () => {
  await t?.close();
  await notes?.close();
});

async function userWithServer(): Promise<{ client: TestClient; userId: string; serverId: string }> {
  const { client, user } = await signUp(t.app);
  const added = await client.post("/api/mcp-servers", { name: "notes", url: notes.url });
  expect(added.statusCode).toBe(201);
  return { client, userId: user.id, serverId: added.json().server.id as string };
}

const coderWith = (builtins: string[], mcp_servers: string[]) => ({
  policy: "ask_risky",
  roles: { coder: { builtins, mcp_servers } },
});

async function sessionCount(client: TestClient): Promise<number> {
  const listed = await client.get("/api/sessions");
  expect(listed.statusCode).toBe(200);
  return (listed.json().sessions as unknown[]).length;
}

describe("a session's per-role tools", () => {
  it("keeps a choice of known built-ins and the person's own MCP server", async () => {
    const { client, serverId } = await userWithServer();
    const session = await createSession(client, {
      tools: {
        policy: "ask_all",
        roles: {
          coder: { builtins: ["search_documents"], mcp_servers: [serverId] },
          strategist: { builtins: ["read_url", "web_search"], mcp_servers: [] },
        },
      },
    });
    expect(session.tools).toEqual({
      policy: "ask_all",
      roles: {
        coder: { builtins: ["search_documents"], mcp_servers: [serverId] },
        strategist: { builtins: ["read_url", "web_search"], mcp_servers: [] },
      },
    });
    const read = await client.get(`/api/sessions/${session.id}`);
    expect(read.json().session.tools).toEqual(session.tools);
  });

  it("refuses an unknown built-in with 400 and creates nothing", async () => {
    const { client } = await signUp(t.app);
    const before = await sessionCount(client);
    const response = await client.post("/api/sessions", {
      title: "Tools",
      tools: coderWith(["search_documents", "delete_everything"], []),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: TOOL_SETTINGS_ERROR_CODES.unknownBuiltin,
        message: TOOL_SETTINGS_MESSAGES.unknownBuiltin("delete_everything"),
        details: { role: "coder", builtin: "delete_everything" },
      },
    });
    expect(response.json().error.message).toBe(
      '"delete_everything" is not a built-in tool. The built-in tools are search_documents, read_url, web_search, run_code, generate_image; an MCP server\'s tools are chosen by server.',
    );
    expect(await sessionCount(client)).toBe(before);
  });

  it("refuses an MCP server that does not exist, and another person's, with 400", async () => {
    const other = await userWithServer();
    const { client } = await signUp(t.app);
    const before = await sessionCount(client);
    for (const id of ["6d1c7a52-0f0b-4f7e-9b7e-2f1f1c3b9a10", other.serverId, "operator:none"]) {
      const response = await client.post("/api/sessions", {
        title: "Tools",
        tools: coderWith([], [id]),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: {
          code: TOOL_SETTINGS_ERROR_CODES.unknownServer,
          message: TOOL_SETTINGS_MESSAGES.unknownServer(id),
          details: { role: "coder", mcp_server: id },
        },
      });
    }
    expect(await sessionCount(client)).toBe(before);
  });

  it("refuses a malformed choice (a role that does not exist, a bad name) with 400 validation_failed", async () => {
    const { client } = await signUp(t.app);
    for (const tools of [
      { policy: "ask_risky", roles: { janitor: { builtins: [], mcp_servers: [] } } },
      coderWith(["rm -rf"], []),
      { policy: "ask_risky", roles: { coder: { builtins: [] } } },
      { policy: "sometimes", roles: {} },
    ]) {
      const response = await client.post("/api/sessions", { title: "Tools", tools });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("validation_failed");
      expect(typeof response.json().error.message).toBe("string");
    }
  });

  it("PATCH: a new unknown server is refused and the session stays as it was; a server removed since does not block other changes", async () => {
    const { client, serverId } = await userWithServer();
    const session = await createSession(client, { tools: coderWith([], [serverId]) });
    const refused = await client.request("PATCH", `/api/sessions/${session.id}`, {
      tools: coderWith([], [serverId, "6d1c7a52-0f0b-4f7e-9b7e-2f1f1c3b9a10"]),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe(TOOL_SETTINGS_ERROR_CODES.unknownServer);
    const unchanged = await client.get(`/api/sessions/${session.id}`);
    expect(unchanged.json().session.tools).toEqual(session.tools);

    // The server goes away; the session keeps naming it (its runs simply lack those tools),
    // and changing the policy with the same roles still saves.
    expect((await client.delete(`/api/mcp-servers/${serverId}`)).statusCode).toBe(200);
    const saved = await client.request("PATCH", `/api/sessions/${session.id}`, {
      tools: { ...coderWith([], [serverId]), policy: "ask_all" },
    });
    expect(saved.statusCode).toBe(200);
    expect((saved.json().session as TSession).tools.policy).toBe("ask_all");
  });
});

describe("a template's per-role tools", () => {
  it("refuses an unknown built-in or server in a setup given outright, and on PATCH", async () => {
    const { client, userId, serverId } = await userWithServer();
    const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
    expect((await admin.put(`/api/admin/users/${userId}/tier`, { tier: "pro+" })).statusCode).toBe(
      200,
    );
    const setup = { coordinator_model: "coreason", tools: coderWith(["read_url"], [serverId]) };
    const created = await client.post(TEMPLATE_ROUTES.list, { name: "With notes", setup });
    expect(created.statusCode).toBe(201);
    expect(created.json().template.setup.tools).toEqual(setup.tools);
    const id = created.json().template.id as string;

    const badBuiltin = await client.post(TEMPLATE_ROUTES.list, {
      name: "Bad",
      setup: { ...setup, tools: coderWith(["format_disk"], []) },
    });
    expect(badBuiltin.statusCode).toBe(400);
    expect(badBuiltin.json().error).toEqual({
      code: TOOL_SETTINGS_ERROR_CODES.unknownBuiltin,
      message: TOOL_SETTINGS_MESSAGES.unknownBuiltin("format_disk"),
      details: { role: "coder", builtin: "format_disk" },
    });

    const other = await userWithServer();
    const badServer = await client.request("PATCH", TEMPLATE_ROUTES.one(id), {
      setup: { ...setup, tools: coderWith([], [serverId, other.serverId]) },
    });
    expect(badServer.statusCode).toBe(400);
    expect(badServer.json().error.code).toBe(TOOL_SETTINGS_ERROR_CODES.unknownServer);
    const kept = await client.get(TEMPLATE_ROUTES.one(id));
    expect(kept.json().template.setup.tools).toEqual(setup.tools);
  });
});

describe("a finished run's tool calls", () => {
  it("come back with the session, in order, with arguments, duration and size", async () => {
    const { client, userId, serverId } = await userWithServer();
    await setCredits(t.app, userId, 100);
    const session = await createSession(client, {
      manual_agent_selection: true,
      agent_preferences: { coder: { enabled: true, model: null, instructions: "" } },
      tools: coderWith([], [serverId]),
    });
    const { run_id, events } = await runToEnd(
      client,
      session.id,
      "List notes about groceries.",
      60_000,
    );
    expect(events.at(-1)?.type).toBe("run.completed");

    const detail = (
      await client.get(`/api/sessions/${session.id}`)
    ).json() as TSessionDetailResponse;
    const run = detail.runs.find((r) => r.id === run_id);
    const calls = run?.tool_calls ?? [];
    const fromEvents = events.filter((e) => e.type === "tool.call").map((e) => e.tool_call_id);
    expect(calls.map((c) => c.tool_call_id)).toEqual(fromEvents);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    const call = calls[0] as TRunToolCall;
    expect(call).toMatchObject({
      tool: "mcp__notes__list_notes",
      risk: "read",
      source: { kind: "mcp", server_id: serverId, server_name: "notes" },
      status: "completed",
      text_preview: "- [n2] Groceries: Milk, eggs, bread.",
      output_chars: "- [n2] Groceries: Milk, eggs, bread.".length,
      error: null,
      approval: null,
    });
    const asked = events.find(
      (e) => e.type === "tool.call" && e.tool_call_id === call.tool_call_id,
    );
    expect(asked?.type === "tool.call" ? asked.args : undefined).toEqual(call.args);
    const finished = events.find(
      (e) => e.type === "tool.result" && e.tool_call_id === call.tool_call_id,
    );
    expect(finished?.type === "tool.result" ? finished.duration_ms : undefined).toBe(
      call.duration_ms,
    );
    expect(call.duration_ms).toBeGreaterThanOrEqual(0);
    // The lane it belongs to is one of the run's steps.
    expect(run?.steps.map((s) => s.id)).toContain(call.call_id);
  }, 90_000);
});
