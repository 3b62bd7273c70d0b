import { ZMcpServerResponse, ZMcpServersResponse } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NotesServer, startNotesServer } from "../../../test-support/mcp-notes-server";
import {
  type AuthorizationServer,
  startAuthorizationServer,
} from "../../../test-support/oauth-authorization-server";
import { signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { toolContext } from "./support/tools";

/**
 * An MCP server behind OAuth 2.1 (decision 060): the SDK's client auth discovers the
 * authorization server from the server's 401, registers Cohort as a client, sends the person
 * to sign in with PKCE, and the callback stores the tokens. Both servers are real, local.
 */

let t: TestApp;
let as: AuthorizationServer;
let notes: NotesServer;

beforeAll(async () => {
  as = await startAuthorizationServer();
  notes = await startNotesServer({
    acceptToken: (token) => as.accepts(token),
    authorizationServer: as.issuer,
  });
  t = await createTestApp({
    USER_BASE_URL_ALLOWED_NETWORKS: "127.0.0.1/32",
    PUBLIC_URL: "http://cohort.example.test",
  });
});

afterAll(async () => {
  await t?.close();
  await notes?.close();
  await as?.close();
});

describe("OAuth 2.1 MCP servers", () => {
  it("signs in through the authorization server and calls tools with the tokens", async () => {
    const { client, user } = await signUp(t.app);
    const created = await client.post("/api/mcp-servers", {
      name: "oauth notes",
      url: notes.url,
      auth: { kind: "oauth" },
    });
    expect(created.statusCode).toBe(201);
    const { server, authorization_url } = ZMcpServerResponse.parse(created.json());
    expect(server).toMatchObject({
      state: "needs_authorization",
      tools: [],
      auth: { kind: "oauth" },
    });
    expect(authorization_url).not.toBeNull();
    const authorize = new URL(authorization_url ?? "");
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${as.issuer}/authorize`);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("redirect_uri")).toBe(
      "http://cohort.example.test/api/mcp-servers/oauth/callback",
    );
    expect(as.clients.size).toBe(1);

    // The person's browser at the authorization server, which sends it back to Cohort.
    const consent = await fetch(authorization_url ?? "", { redirect: "manual" });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get("location") ?? "");
    expect(back.pathname).toBe("/api/mcp-servers/oauth/callback");

    const callback = await client.get(`${back.pathname}${back.search}`);
    expect(callback.statusCode).toBe(302);
    expect(callback.headers.location).toBe(`/settings?mcp_server=${server.id}`);
    expect(as.tokenRequests).toEqual(["authorization_code"]);

    const listed = ZMcpServersResponse.parse((await client.get("/api/mcp-servers")).json());
    expect(listed.servers[0]).toMatchObject({
      id: server.id,
      state: "connected",
      last_error: null,
    });
    expect(listed.servers[0]?.tools.map((tool) => tool.qualified_name)).toEqual([
      "mcp__oauth-notes__list_notes",
      "mcp__oauth-notes__create_note",
    ]);

    const tools = await t.app.mcpTools.tools({
      userId: user.id,
      workspaceId: null,
      sessionId: "s",
    });
    const out = await tools[0]?.execute({}, toolContext(user.id));
    expect(out?.isError).toBe(false);
    expect(out?.text).toContain("- [n1] Welcome");
    expect(notes.authorizations.at(-1)).toMatch(/^Bearer [0-9a-f]{32}$/);

    // A replayed callback finds no sign-in under way.
    const replay = await client.get(`${back.pathname}${back.search}`);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe("mcp_oauth_state_invalid");
  });
});
