import {
  MCP_PATH,
  MCP_TOOLS,
  type TMcpRunTeamOutput,
  type TMcpSearchDocumentsOutput,
  type TSessionDocumentsResponse,
} from "@cohort/contracts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestAccessToken } from "./support/access-tokens";
import { createTestApp, type TestApp } from "./support/app";
import { uploadProcessed } from "./support/documents";
import { signUpWithCredits } from "./support/runs-credits";

/** The MCP tools that reach documents: search_documents, and run_team with document_ids. */
let t: TestApp;
let url: URL;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  url = new URL(MCP_PATH, await t.app.listen({ port: 0, host: "127.0.0.1" }));
});
afterAll(() => t.close());

const GREENHOUSE = `# Greenhouse notes

Tomatoes need at least eight hours of sun. Water the seedlings every morning.

## Heating

The greenhouse heater runs on propane and keeps the night temperature above 12 degrees.`;

async function member() {
  const signed = await signUpWithCredits(t.app, 200);
  const { token } = await createTestAccessToken(signed.client);
  const mcp = new Client({ name: "cohort-test", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return { ...signed, mcp };
}

async function call(mcp: Client, name: string, args: Record<string, unknown>) {
  return (await mcp.callTool({ name, arguments: args })) as CallToolResult;
}

describe("documents over MCP", () => {
  it("searches the owner's documents only", async () => {
    const owner = await member();
    const document = await uploadProcessed(owner.client, "greenhouse.md", GREENHOUSE);
    expect(document.status).toBe("ready");

    const found = await call(owner.mcp, MCP_TOOLS.searchDocuments, { query: "propane heater" });
    const { passages } = found.structuredContent as TMcpSearchDocumentsOutput;
    expect(passages.length).toBeGreaterThan(0);
    expect(passages[0]).toMatchObject({
      document_id: document.id,
      document_name: "greenhouse.md",
    });
    expect(passages[0]?.text).toContain("propane");
    // A passage, not a search page's hit: no ordinal, no highlighted snippet.
    expect(Object.keys(passages[0] ?? {})).toEqual([
      "chunk_id",
      "document_id",
      "document_name",
      "page",
      "section",
      "text",
      "score",
    ]);

    const stranger = await member();
    const theirs = await call(stranger.mcp, MCP_TOOLS.searchDocuments, {
      query: "propane heater",
      document_ids: [document.id],
    });
    expect((theirs.structuredContent as TMcpSearchDocumentsOutput).passages).toEqual([]);
    await Promise.all([owner.mcp.close(), stranger.mcp.close()]);
  });

  it("attaches the given documents to run_team's session, and refuses someone else's", async () => {
    const owner = await member();
    const document = await uploadProcessed(owner.client, "greenhouse.md", GREENHOUSE);
    const result = await call(owner.mcp, MCP_TOOLS.runTeam, {
      task: "How warm does the greenhouse stay at night?",
      document_ids: [document.id],
    });
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent as TMcpRunTeamOutput;
    const attached = (await owner.client.get(`/api/sessions/${output.session_id}/documents`)).json()
      .documents as TSessionDocumentsResponse["documents"];
    expect(attached.map((d) => d.id)).toEqual([document.id]);
    const run = (await owner.client.get(`/api/sessions/${output.session_id}`)).json().runs[0];
    expect(run.plan.documents).toEqual([{ id: document.id, name: "greenhouse.md" }]);

    const stranger = await member();
    const refused = await call(stranger.mcp, MCP_TOOLS.runTeam, {
      task: "Summarise this",
      document_ids: [document.id],
    });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]).toMatchObject({ text: "One of these documents does not exist." });
    expect((await stranger.client.get("/api/sessions")).json().total).toBe(0);
    await Promise.all([owner.mcp.close(), stranger.mcp.close()]);
  });
});
