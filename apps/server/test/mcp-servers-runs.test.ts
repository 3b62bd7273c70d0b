import type { TRunEventOf } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NotesServer, startNotesServer } from "../../../test-support/mcp-notes-server";
import { createTestApp, type TestApp } from "./support/app";
import { createSession, runToEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";

/**
 * A connected MCP server's tools in a run (decision 060), on the built-in simulator, which
 * calls a tool whose name's words its task mentions: namespaced `mcp__<server>__<tool>`,
 * offered only to the roles the session chose it for, its answer in the lane; a server that
 * is down, slow or answers 5 MB fails the call and the run goes on.
 */

let t: TestApp;
let notes: NotesServer;

beforeAll(async () => {
  notes = await startNotesServer({ slowMs: 30_000 });
  t = await createTestApp({
    SIMULATOR_TOKENS_PER_SECOND: "0",
    SIGNUP_CREDITS: "0",
    USER_BASE_URL_ALLOWED_NETWORKS: "127.0.0.1/32",
    // Long enough that a loaded machine still reads a 5 MB answer to its 1 MB cap before it.
    MCP_CALL_TIMEOUT_SECONDS: "6",
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await notes?.close();
});

const resultsOf = (events: { type: string }[], tool: string) =>
  events.filter(
    (e): e is TRunEventOf<"tool.result"> =>
      e.type === "tool.result" && (e as TRunEventOf<"tool.result">).tool === tool,
  );

async function setup(mcp: boolean) {
  const { client } = await signUpWithCredits(t.app, 100);
  const added = await client.post("/api/mcp-servers", { name: "notes", url: notes.url });
  expect(added.statusCode).toBe(201);
  const serverId = added.json().server.id as string;
  const session = await createSession(client, {
    manual_agent_selection: true,
    agent_preferences: { coder: { enabled: true, model: null, instructions: "" } },
    tools: {
      policy: "ask_risky",
      roles: { coder: { builtins: [], mcp_servers: mcp ? [serverId] : [] } },
    },
  });
  return { client, session, serverId };
}

describe("MCP tools in runs", () => {
  it("calls mcp__notes__list_notes in the Coder's lane, with the server as its source", async () => {
    const { client, session, serverId } = await setup(true);
    const { events } = await runToEnd(
      client,
      session.id,
      "List notes about groceries, then plan the shopping.",
      60_000,
    );
    expect(events.at(-1)?.type).toBe("run.completed");
    const calls = events.filter((e): e is TRunEventOf<"tool.call"> => e.type === "tool.call");
    expect(calls.map((c) => [c.tool, c.risk, c.source])).toContainEqual([
      "mcp__notes__list_notes",
      "read",
      { kind: "mcp", server_id: serverId, server_name: "notes" },
    ]);
    const results = resultsOf(events, "mcp__notes__list_notes");
    expect(results.length).toBeGreaterThanOrEqual(1);
    for (const result of results) {
      expect(result.status).toBe("completed");
      expect(result.text_preview).toBe("- [n2] Groceries: Milk, eggs, bread.");
    }
  }, 90_000);

  it("offers no MCP tool to a role the session did not choose it for", async () => {
    const { client, session } = await setup(false);
    const { events } = await runToEnd(client, session.id, "List notes about groceries.", 60_000);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(events.filter((e) => e.type === "tool.call")).toEqual([]);
  }, 90_000);

  it.each([
    ["down", /^MCP server "notes" is unreachable: /],
    ["slow", /^MCP server "notes" did not answer within 6 s\.$/],
    ["huge", /^MCP server "notes" answered more than 1024 KB; the answer was dropped\.$/],
  ] as const)(
    "a server that is %s fails the call in the lane, and the run goes on",
    async (mode, message) => {
      const { client, session } = await setup(true);
      notes.setMode(mode);
      try {
        const { events } = await runToEnd(
          client,
          session.id,
          "List notes about groceries.",
          60_000,
        );
        expect(events.at(-1)?.type).toBe("run.completed");
        const results = resultsOf(events, "mcp__notes__list_notes");
        expect(results.length).toBeGreaterThanOrEqual(1);
        for (const result of results) {
          expect(result.status).toBe("failed");
          expect(result.error?.message ?? result.text_preview).toMatch(message);
        }
      } finally {
        notes.setMode("ok");
      }
    },
    90_000,
  );
});
