import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ZMcpServersResponse } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NotesServer, startNotesServer } from "../../../test-support/mcp-notes-server";
import { loadConfig } from "../src/config";
import { findRepoRoot } from "../src/platform/paths";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { toolContext } from "./support/tools";

/**
 * The operator's MCP servers (MCP_SERVERS_FILE, decision 060): offered to every user, listed
 * read-only; a stdio server is started with the file's fixed argv (here the notes server's
 * stdio mode), and a private address is reached only where the file allows it.
 */

let t: TestApp;
let notes: NotesServer;
const root = findRepoRoot();

function writeServersFile(json: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "cohort-mcp-")), "mcp-servers.json");
  writeFileSync(file, JSON.stringify(json));
  return file;
}

beforeAll(async () => {
  notes = await startNotesServer();
  const file = writeServersFile({
    servers: [
      { name: "Ops notes", url: notes.url, allow_private_network: true },
      {
        name: "Local notes",
        transport: "stdio",
        command: process.execPath,
        args: ["--import", "tsx", path.join(root, "test-support/mcp-notes-server.ts"), "--stdio"],
        cwd: root,
      },
      // Loopback without the operator's leave: refused like a user's URL.
      { name: "Unallowed", url: notes.url },
    ],
  });
  t = await createTestApp({ MCP_SERVERS_FILE: file, MCP_CONNECT_TIMEOUT_SECONDS: "30" });
});

afterAll(async () => {
  await t?.close();
  await notes?.close();
});

describe("operator MCP servers", () => {
  it("are listed read-only for everyone, and their tools (stdio included) reach runs", async () => {
    const { client, user } = await signUp(t.app);
    const listed = ZMcpServersResponse.parse((await client.get("/api/mcp-servers")).json());
    expect(
      listed.servers.map((s) => [
        s.id,
        s.owner,
        s.transport,
        s.state,
        s.manageable,
        s.tools.length,
      ]),
    ).toEqual([
      ["operator:ops-notes", "operator", "streamable_http", "connected", false, 2],
      ["operator:local-notes", "operator", "stdio", "connected", false, 2],
      ["operator:unallowed", "operator", "streamable_http", "error", false, 0],
    ]);
    expect(listed.servers[1]?.url).toBe("stdio (started by the operator)");
    expect(listed.servers[2]?.last_error).toBe(
      'MCP server "Unallowed" is unreachable: 127.0.0.1 is a loopback address, which Cohort does not call. Use your server\'s public address.',
    );

    const tools = await t.app.mcpTools.tools({
      userId: user.id,
      workspaceId: null,
      sessionId: "s",
    });
    expect(tools.map((tool) => tool.name)).toEqual([
      "mcp__ops-notes__list_notes",
      "mcp__ops-notes__create_note",
      "mcp__local-notes__list_notes",
      "mcp__local-notes__create_note",
    ]);
    const stdioCreate = tools[3];
    const out = await stdioCreate?.execute(
      { title: "Over stdio", body: "b" },
      toolContext(user.id),
    );
    expect(out).toEqual({ text: "Created note n3: Over stdio", isError: false });

    const removed = await client.delete("/api/mcp-servers/operator:ops-notes");
    expect(removed.statusCode).toBe(403);
    expect(removed.json().error).toEqual({
      code: "mcp_operator_server",
      message: "This MCP server is set up by the operator and cannot be changed here.",
    });
    const refreshed = await client.post("/api/mcp-servers/operator:ops-notes/refresh", {});
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().server.state).toBe("connected");
  }, 60_000);

  it("stops start-up on a bad servers file, naming the variable", () => {
    const relative = writeServersFile({
      servers: [{ name: "sh", transport: "stdio", command: "sh", args: ["-c", "id"] }],
    });
    expect(() => loadConfig({ ...envOf(), MCP_SERVERS_FILE: relative })).toThrow(
      "MCP_SERVERS_FILE: servers.0.command: must be an absolute path",
    );
    const twice = writeServersFile({
      servers: [
        { name: "a", url: "https://a.example.com/mcp" },
        { name: "A", url: "https://b.example.com/mcp" },
      ],
    });
    expect(() => loadConfig({ ...envOf(), MCP_SERVERS_FILE: twice })).toThrow(
      'MCP_SERVERS_FILE: two servers are named "a"',
    );
  });
});

/** The least a config needs, to load one beside the test app's. */
function envOf(): Record<string, string> {
  return {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "cohort-data-")),
  };
}
