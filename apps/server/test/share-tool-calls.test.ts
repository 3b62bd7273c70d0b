import {
  ACCOUNT_DATA_ROUTES,
  type TRun,
  type TRunEvent,
  type TSharedView,
  type TShareLink,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDocumentStore } from "../src/modules/documents/document-store";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";
import { createSession, runToEnd, sendMessage, waitForEvent, waitForRunEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";
import { addTestNotesProvider, coderWithNotes } from "./support/tools";

/**
 * Tool calls of finished runs on share links, answered approvals after a reload, and the
 * files run_code wrote (decision 076): a link shows each call as the live stream's projection
 * does (no arguments, output, files or approver; costs only when shared); a reload's run
 * carries the approval's answer; a link never serves run_code's files; deleting the account or
 * the session erases their rows and bytes.
 */
const RUN_MS = 90_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  addTestNotesProvider(t.app);
}, RUN_MS);
afterAll(async () => {
  await t?.close();
});

async function owner(): Promise<SignedUp> {
  const signed = await signUpWithCredits(t.app, 300, { firstName: "Grace", lastName: "Hopper" });
  return signed;
}

async function share(client: TestClient, sessionId: string, body: Record<string, unknown>) {
  const response = await client.post(`/api/sessions/${sessionId}/shares`, body);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { share: TShareLink }).share;
}

async function sharedView(token: string): Promise<{ view: TSharedView; text: string }> {
  const response = await new TestClient(t.app, "203.0.113.9").get(`/api/share/${token}`);
  expect(response.statusCode).toBe(200);
  return { view: response.json() as TSharedView, text: response.body };
}

async function storedRun(client: TestClient, sessionId: string, runId: string): Promise<TRun> {
  const detail = (await client.get(`/api/sessions/${sessionId}`)).json() as { runs: TRun[] };
  return detail.runs.find((r) => r.id === runId) as TRun;
}

describe("a finished run's tool calls", () => {
  it("come back with the approval's answer after a reload, and a share shows them redacted", async () => {
    const grace = await owner();
    const session = await createSession(grace.client, {
      title: "Notes",
      ...coderWithNotes("ask_risky"),
    });
    const { run_id } = await sendMessage(
      grace.client,
      session.id,
      "Create a note about the launch plan for the bakery.",
    );
    const asked = (await waitForEvent(
      grace.client,
      session.id,
      (e) => e.run_id === run_id && e.type === "tool.approval",
      RUN_MS,
    )) as Extract<TRunEvent, { type: "tool.approval" }>;
    const decided = await grace.client.post(
      `/api/sessions/${session.id}/approvals/${asked.approval_id}`,
      { decision: "approve", args: { title: "Private launch date", body: "Tuesday the 9th" } },
    );
    expect(decided.statusCode, decided.body).toBe(200);
    const events = await waitForRunEnd(grace.client, session.id, run_id, RUN_MS);
    expect(events.at(-1)?.type).toBe("run.completed");
    const answer = events.find((e) => e.type === "tool.approval.decided") as Extract<
      TRunEvent,
      { type: "tool.approval.decided" }
    >;

    // The owner's reload: the call with what went in and out, and the answered request.
    const run = await storedRun(grace.client, session.id, run_id);
    const calls = run.tool_calls ?? [];
    expect(calls).toHaveLength(1);
    const call = calls[0] as NonNullable<TRun["tool_calls"]>[number];
    expect(call).toMatchObject({
      tool_call_id: asked.tool_call_id,
      tool: "create_note",
      title: "Create a note",
      risk: "write",
      status: "completed",
      args: { title: "Private launch date", body: "Tuesday the 9th" },
      text_preview: "Created note n1: Private launch date",
      files: [],
      credits: 0,
      error: null,
      approval: {
        decision: "approved",
        by_name: "Grace Hopper",
        at: answer.at,
        id: asked.approval_id,
        reason: "policy",
        note: answer.note,
        always: false,
      },
    });

    // A link without costs: the call's facts, nothing of what went in or came out, no approver.
    const hidden = await share(grace.client, session.id, { show_names: true });
    const { view, text } = await sharedView(hidden.token);
    const redacted = {
      ...call,
      args: null,
      text_preview: "",
      sources: [],
      files: [],
      error: null,
      approval: { ...call.approval, by_name: null, note: null },
    };
    expect(view.runs[0]?.tool_calls).toEqual([{ ...redacted, credits: null }]);
    // (The lane's own text may say what the tool returned, as a model's would; the rows do not.)
    const rows = JSON.stringify(view.runs[0]?.tool_calls);
    expect(rows).not.toContain("Private launch date");
    expect(rows).not.toContain("Tuesday the 9th");
    expect(text).not.toContain("Tuesday the 9th");

    // A run link with costs shows the call's price; still nothing of its content.
    const open = await share(grace.client, session.id, { run_id, show_costs: true });
    const costs = await sharedView(open.token);
    expect(costs.view.runs[0]?.tool_calls).toEqual([{ ...redacted, credits: 0 }]);
    expect(costs.text).not.toContain("Tuesday the 9th");
  }, 180_000);
});

const CODE = [
  "Run this Python code and keep the CSV it writes:",
  "",
  "```python",
  "open('totals.csv', 'w').write('name,total\\nada,42\\n')",
  "print('written')",
  "```",
].join("\n");

/** A session whose run's run_code wrote totals.csv; the file's address and storage key. */
async function sessionWithCodeFile(grace: SignedUp) {
  const session = await createSession(grace.client, {
    title: "Totals",
    manual_agent_selection: true,
    agent_preferences: { coder: { enabled: true } },
    tools: {
      policy: "never_ask",
      roles: { coder: { builtins: ["run_code"], mcp_servers: [] } },
    },
  });
  const { run_id, events } = await runToEnd(grace.client, session.id, CODE, 150_000);
  expect(events.at(-1)?.type).toBe("run.completed");

  const run = await storedRun(grace.client, session.id, run_id);
  const call = run.tool_calls?.find((c) => c.tool === "run_code");
  expect(call?.status).toBe("completed");
  expect(call?.files?.map((f) => [f.name, f.media_type, f.bytes])).toEqual([
    ["totals.csv", "text/csv; charset=utf-8", 18],
  ]);
  const fileUrl = call?.files?.[0]?.url ?? "";
  expect(fileUrl).toMatch(/^\/api\/code-files\/[0-9a-f-]{36}$/);
  const { rows } = await t.app.db.query<{ storage_key: string }>(
    "SELECT storage_key FROM code_run_files WHERE id = $1",
    [fileUrl.split("/").at(-1)],
  );
  return { session, fileUrl, key: rows[0]?.storage_key as string };
}

const codeFiles = () =>
  createDocumentStore(t.app.config.documents, t.app.config.dataDir, "code-files");

describe("the files run_code wrote", () => {
  it("are never listed or served by a share; erasing the account erases their rows and bytes", async () => {
    const grace = await owner();
    const stranger = await signUp(t.app);
    const { session, fileUrl, key } = await sessionWithCodeFile(grace);

    const download = await grace.client.get(fileUrl);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe("name,total\nada,42\n");

    // A share shows the call, never its files: no list, no link, and the file's own address
    // answers nobody without the session.
    const link = await share(grace.client, session.id, { show_costs: true });
    const { view, text } = await sharedView(link.token);
    const shared = view.runs[0]?.tool_calls?.find((c) => c.tool === "run_code");
    expect(shared).toMatchObject({ status: "completed", files: [], args: null, text_preview: "" });
    expect(text).not.toContain("/api/code-files/");
    expect(JSON.stringify(shared)).not.toContain("written");
    const anonymous = await new TestClient(t.app, "203.0.113.9").get(fileUrl);
    expect(anonymous.statusCode).toBe(401);
    expect((await stranger.client.get(fileUrl)).statusCode).toBe(404);

    // The account goes: the file's row and its bytes go with it.
    const id = fileUrl.split("/").at(-1) as string;
    const store = codeFiles();
    expect((await store.read(key)).toString()).toBe("name,total\nada,42\n");
    const deleted = await grace.client.request("DELETE", ACCOUNT_DATA_ROUTES.account, {
      confirm: "DELETE",
      password: grace.password,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const after = await t.app.db.query("SELECT id FROM code_run_files WHERE id = $1", [id]);
    expect(after.rows).toEqual([]);
    await expect(store.read(key)).rejects.toThrow(/ENOENT/);
    const gone = await stranger.client.get(fileUrl);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.code).toBe("not_found");
  }, 240_000);

  it("go with their session when it is deleted: rows and bytes", async () => {
    const grace = await owner();
    const { session, fileUrl, key } = await sessionWithCodeFile(grace);
    const store = codeFiles();
    expect((await store.read(key)).toString()).toBe("name,total\nada,42\n");
    const deleted = await grace.client.delete(`/api/sessions/${session.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const gone = await grace.client.get(fileUrl);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.code).toBe("not_found");
    const rows = await t.app.db.query("SELECT id FROM code_run_files WHERE storage_key = $1", [
      key,
    ]);
    expect(rows.rows).toEqual([]);
    await expect(store.read(key)).rejects.toThrow(/ENOENT/);
  }, 240_000);
});
