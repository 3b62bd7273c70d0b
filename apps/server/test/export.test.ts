import {
  AGENT_ROLE_NAMES,
  SESSION_IMPORT_MAX_BYTES,
  type TRun,
  type TSessionExport,
  ZSessionExport,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handmadeExport } from "../../../test-support/export-fixtures";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { SOLAR, uploadProcessed } from "./support/documents";
import { pdfText } from "./support/pdf";
import { createSession, runToEnd } from "./support/runs";
import { balanceOf, signUpWithCredits } from "./support/runs-credits";
import { createTeam } from "./support/workspaces";

/**
 * Session export and import (decision 043): Markdown to read, lossless JSON, PDF with code and
 * tables kept; viewers may export, outsiders get 404; an import is validated and size-capped,
 * round-trips, and its runs cost nothing.
 */

const ALL_ROLES = {
  strategist: { enabled: true, model: null },
  coder: { enabled: true, model: null },
  designer: { enabled: true, model: null },
  critic: { enabled: true, model: null },
};

let t: TestApp;
let owner: SignedUp;
let viewer: SignedUp;
let member: SignedUp;
let outsider: SignedUp;
let sessionId: string;
let teamId: string;
let teamSessionId: string;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  await t.app.ready();
  [owner, viewer, member, outsider] = [
    await signUpWithCredits(t.app, 500),
    await signUp(t.app),
    await signUp(t.app),
    await signUp(t.app),
  ];

  const solar = await uploadProcessed(owner.client, "solar-roof.md", SOLAR);
  const session = await createSession(owner.client, {
    title: "Solar / roof: plan & code!",
    description: "Panels for the garage roof.",
    manual_agent_selection: true,
    agent_preferences: ALL_ROLES,
  });
  sessionId = session.id;
  const attached = await owner.client.put(`/api/sessions/${sessionId}/documents`, {
    document_ids: [solar.id],
  });
  expect(attached.statusCode).toBe(200);
  const { events } = await runToEnd(
    owner.client,
    sessionId,
    "Plan the installation of solar panels on our roof and write a Python script that sizes the inverter",
  );
  expect(events.some((e) => e.type === "run.completed")).toBe(true);

  const team = await createTeam(t.app, owner.user.id, [
    { userId: viewer.user.id, role: "viewer" },
    { userId: member.user.id, role: "member" },
  ]);
  teamId = team.id;
  teamSessionId = (await createSession(owner.client, { title: "Team plan", workspace_id: teamId }))
    .id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const exportOf = (client: TestClient, id: string, format: string) =>
  client.get(`/api/sessions/${id}/export?format=${format}`);

async function jsonExport(client: TestClient, id: string): Promise<TSessionExport> {
  const response = await exportOf(client, id, "json");
  expect(response.statusCode).toBe(200);
  return JSON.parse(response.body) as TSessionExport;
}

async function storedRuns(client: TestClient, id: string): Promise<TRun[]> {
  const response = await client.get(`/api/sessions/${id}`);
  expect(response.statusCode).toBe(200);
  return response.json().runs as TRun[];
}

/** Counts of the rows an import must not touch or must add to. */
async function counts() {
  const { rows } = await t.db.query<{
    sessions: number;
    runs: number;
    ledger: number;
    holds: number;
    usage: number;
  }>(
    `SELECT (SELECT count(*) FROM sessions)::int AS sessions,
       (SELECT count(*) FROM runs)::int AS runs,
       (SELECT count(*) FROM credit_ledger)::int AS ledger,
       (SELECT count(*) FROM credit_holds)::int AS holds,
       (SELECT count(*) FROM usage_events)::int AS usage`,
  );
  const row = rows[0];
  if (!row) throw new Error("no counts");
  return row;
}

const importExport = (client: TestClient, body: unknown, query = "") =>
  client.post(`/api/sessions/import${query}`, body);

describe("export formats", () => {
  it("JSON: validates against the versioned schema and carries every step", async () => {
    const response = await exportOf(owner.client, sessionId, "json");
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe(
      'attachment; filename="solar-roof-plan-code.json"',
    );
    const data = ZSessionExport.parse(JSON.parse(response.body));
    expect(data.format).toBe("cohort.session");
    expect(data.version).toBe(1);
    expect(data.session.title).toBe("Solar / roof: plan & code!");
    expect(data.documents.map((d) => d.name)).toEqual(["solar-roof.md"]);

    const runs = await storedRuns(owner.client, sessionId);
    expect(data.runs).toHaveLength(1);
    const [run] = data.runs;
    const [stored] = runs;
    expect(run?.steps).toEqual(stored?.steps);
    expect(run?.plan).toEqual(stored?.plan);
    expect(run?.total_credits).toBe(stored?.total_credits);
    expect(run?.imported).toBe(false);
    const kinds = new Set(run?.steps.map((s) => s.kind));
    for (const kind of ["plan", "agent", "critic", "synthesis"]) expect(kinds).toContain(kind);
    for (const step of run?.steps ?? []) {
      expect(step.model_name.length).toBeGreaterThan(0);
      expect(step.input_tokens + step.output_tokens).toBeGreaterThan(0);
    }
    expect(run?.passages.length).toBeGreaterThan(0);
    expect(run?.cited.length).toBeGreaterThan(0);
    const critic = run?.steps.find((s) => s.kind === "critic");
    expect(run?.critic_verdicts.map((v) => v.call_id)).toContain(critic?.id);
    expect(run?.critic_verdicts[0]?.score).toBe(stored?.critic_score);
    expect(data.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("Markdown: the plan, each agent's role, model and cost, the Critic's score, citations", async () => {
    const response = await exportOf(owner.client, sessionId, "markdown");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(response.headers["content-disposition"]).toBe(
      'attachment; filename="solar-roof-plan-code.md"',
    );
    const md = response.body;
    const [run] = await storedRuns(owner.client, sessionId);
    if (!run?.plan) throw new Error("no plan");
    expect(md.startsWith("# Solar / roof: plan & code!\n")).toBe(true);
    expect(md).toContain("#### Plan");
    expect(md).toContain(run.plan.rationale);
    for (const step of run.plan.steps) expect(md).toContain(step.task.replace(/\s+/g, " "));
    for (const step of run.steps.filter((s) => s.kind === "agent" || s.kind === "critic")) {
      const role = AGENT_ROLE_NAMES[step.role ?? "critic"];
      expect(md).toContain(`#### ${role} — ${step.model_name} (`);
      expect(md).toContain(`${step.credits.toFixed(2)} credits`);
    }
    expect(md).toContain(`${run.total_credits.toFixed(2)} credits`);
    expect(md).toContain(`Critic score ${run.critic_score}/10`);
    expect(md).toContain("#### Final answer");
    // Citations become footnotes naming the document.
    const first = run.cited?.[0];
    expect(md).toContain(`[^r1-${first}]`);
    expect(md).toContain(`[^r1-${first}]: **solar-roof.md**`);
  });

  it("PDF: a readable document with the code block, the table cells and page numbers", async () => {
    const response = await exportOf(owner.client, sessionId, "pdf");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    expect(response.headers["content-disposition"]).toBe(
      'attachment; filename="solar-roof-plan-code.pdf"',
    );
    expect(response.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const { pages, text } = await pdfText(response.rawPayload);
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain("Solar / roof: plan & code!");
    expect(flat).toContain(`Page 1 of ${pages}`);
    // The plan table's cells, and the session facts table.
    const [run] = await storedRuns(owner.client, sessionId);
    expect(flat).toContain("Coordinator");
    expect(flat).toContain("Strategist");
    expect(flat).toContain(run?.plan?.steps[0]?.id ?? "missing");
    // The Coder's code block, line by line.
    const coder = run?.steps.find((s) => s.role === "coder" && s.kind === "agent")?.output ?? "";
    const code = /```\w*\n([\s\S]*?)```/.exec(coder)?.[1] ?? "";
    const lines = code.split("\n").filter((l) => l.trim().length > 0);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(flat).toContain(line.replace(/\s+/g, " ").trim());
  });

  it("PDF: keeps Markdown tables, code and very long lines from an imported export", async () => {
    const long = `${"x".repeat(400)}END`;
    const data = handmadeExport({
      answer: [
        "| Panel | Watts |",
        "| --- | ---: |",
        "| North array | 4200 |",
        "| South array | 6100 |",
        "",
        "```python",
        "def size_inverter(watts):",
        "    return watts * 1.2",
        "```",
        "",
        long,
      ].join("\n"),
    });
    const imported = await importExport(owner.client, data);
    expect(imported.statusCode).toBe(201);
    const pdf = await exportOf(owner.client, imported.json().session_id, "pdf");
    const flat = (await pdfText(pdf.rawPayload)).text.replace(/\s+/g, "");
    for (const cell of ["Panel", "Watts", "Northarray", "4200", "Southarray", "6100"]) {
      expect(flat).toContain(cell);
    }
    expect(flat).toContain("defsize_inverter(watts):");
    expect(flat).toContain("returnwatts*1.2");
    expect(flat).toContain(long);
  });
});

describe("who may export", () => {
  it("a viewer of the workspace can export; an outsider gets 404", async () => {
    const asViewer = await exportOf(viewer.client, teamSessionId, "markdown");
    expect(asViewer.statusCode).toBe(200);
    expect(asViewer.body).toContain("# Team plan");
    for (const format of ["json", "markdown", "pdf"]) {
      const response = await exportOf(outsider.client, teamSessionId, format);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("not_found");
    }
    expect((await exportOf(outsider.client, sessionId, "json")).statusCode).toBe(404);
    expect((await exportOf(owner.client, "not-a-uuid", "json")).statusCode).toBe(404);
    expect((await exportOf(owner.client, sessionId, "docx")).statusCode).toBe(400);
  });
});

describe("import validation", () => {
  it("refuses bad versions, other files, malformed and too large bodies, changing nothing", async () => {
    const before = await counts();
    const good = handmadeExport();

    const newer = await importExport(owner.client, { ...good, version: 2 });
    expect(newer.statusCode).toBe(400);
    expect(newer.json().error).toEqual({
      code: "unsupported_export_version",
      message: "This export is version 2, which this server cannot import. Supported: version 1.",
      details: { version: 2, supported: [1] },
    });

    const other = await importExport(owner.client, { ...good, format: "something.else" });
    expect(other.statusCode).toBe(400);
    expect(other.json().error.code).toBe("unsupported_export_format");

    const broken = await importExport(owner.client, { ...good, runs: [{ id: 1 }] });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe("invalid_export");
    expect(broken.json().error.message).toBe(
      "This export is damaged or incomplete and cannot be imported.",
    );
    expect(broken.json().error.details.length).toBeGreaterThan(0);

    const orphan = structuredClone(good);
    (orphan.runs[0] as { message_id: string }).message_id = "66666666-6666-4666-8666-666666666666";
    const unlinked = await importExport(owner.client, orphan);
    expect(unlinked.statusCode).toBe(400);
    expect(unlinked.json().error.code).toBe("invalid_export");

    const twice = structuredClone(good);
    twice.messages.push({ ...(twice.messages[0] as TSessionExport["messages"][number]) });
    expect((await importExport(owner.client, twice)).json().error.code).toBe("invalid_export");

    const badTime = structuredClone(good);
    (badTime.runs[0] as { created_at: string }).created_at = "yesterday";
    const refused = await importExport(owner.client, badTime);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toEqual({
      code: "invalid_export",
      message: 'This export has "yesterday" where a date and time belongs.',
    });

    const notJson = await owner.client.request("POST", "/api/sessions/import", "{ nope", {
      headers: { "content-type": "application/json" },
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error.code).toBe("invalid_json");

    const huge = structuredClone(good);
    (huge.messages[0] as { content: string }).content = "y".repeat(SESSION_IMPORT_MAX_BYTES);
    const tooLarge = await owner.client.request(
      "POST",
      "/api/sessions/import",
      JSON.stringify(huge),
      { headers: { "content-type": "application/json" } },
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error.code).toBe("payload_too_large");

    // Into a team: a viewer may not (403), an outsider does not see it (404).
    const asViewer = await importExport(viewer.client, good, `?workspace_id=${teamId}`);
    expect(asViewer.statusCode).toBe(403);
    expect(asViewer.json().error.code).toBe("workspace_role_too_low");
    const asOutsider = await importExport(outsider.client, good, `?workspace_id=${teamId}`);
    expect(asOutsider.statusCode).toBe(404);

    expect(await counts()).toEqual(before);
  });

  it("takes a body larger than the global limit, up to the import cap", async () => {
    // Each text within its own limit (decision 052); 64 long questions make 1.2 MB.
    const big = handmadeExport();
    for (let i = 0; i < 64; i += 1) {
      big.messages.push({
        id: `77777777-7777-4777-8777-${String(i).padStart(12, "0")}`,
        session_id: "x",
        role: "user",
        content: "z".repeat(20_000),
        run_id: null,
        created_at: "2026-01-02T03:05:00.000Z",
      });
    }
    expect(JSON.stringify(big).length).toBeGreaterThan(1.2 * 1024 * 1024);
    const response = await importExport(owner.client, big);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ title: "Handmade (imported)", runs: 1, messages: 66 });
  });
});

/**
 * Ids (uuids) replaced by their order of first appearance; times the import sets dropped; the
 * copy's " (imported)" title suffix (decision 052) taken off.
 */
function comparable(data: TSessionExport): unknown {
  const { exported_at: _exported, ...rest } = data;
  const {
    created_at: _created,
    imported_at: _importedAt,
    workspace_id: _workspace,
    ...stored
  } = rest.session;
  const session = { ...stored, title: stored.title.replace(/ \(imported\)$/, "") };
  const runs = rest.runs.map(({ imported: _imported, first_seq: _seq, ...run }) => run);
  const ids = new Map<string, string>();
  const text = JSON.stringify({ ...rest, session, runs }).replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    (id) => {
      if (!ids.has(id)) ids.set(id, `id-${ids.size + 1}`);
      return ids.get(id) as string;
    },
  );
  return JSON.parse(text);
}

describe("import", () => {
  it("round trip: export → import → export is equal except ids, times and import marks", async () => {
    const first = await jsonExport(owner.client, sessionId);
    const imported = await importExport(member.client, first, `?workspace_id=${teamId}`);
    expect(imported.statusCode).toBe(201);
    const { session_id: copyId } = imported.json();
    expect(copyId).not.toBe(sessionId);
    expect(imported.json()).toEqual({
      session_id: copyId,
      title: "Solar / roof: plan & code! (imported)",
      runs: 1,
      messages: 2,
    });

    // The member imported it into the team: its viewer reads it too.
    const second = await jsonExport(viewer.client, copyId);
    expect(second.session.workspace_id).toBe(teamId);
    expect(second.session.imported_at).toEqual(expect.any(String));
    expect(second.runs.every((r) => r.imported)).toBe(true);
    expect(comparable(second)).toEqual(comparable(first));

    // And once more: an import of an import still compares equal.
    const again = await importExport(owner.client, second);
    expect(again.statusCode).toBe(201);
    expect(comparable(await jsonExport(owner.client, again.json().session_id))).toEqual(
      comparable(first),
    );
  });

  it("imported runs cost nothing and are marked; no document or memory of anyone is linked", async () => {
    const first = await jsonExport(owner.client, sessionId);
    const balance = await balanceOf(t.app, owner.user.id);
    const before = await counts();

    const imported = await importExport(owner.client, first);
    expect(imported.statusCode).toBe(201);
    const copyId = imported.json().session_id as string;

    const after = await counts();
    expect(after).toEqual({ ...before, sessions: before.sessions + 1, runs: before.runs + 1 });
    expect(await balanceOf(t.app, owner.user.id)).toEqual(balance);

    const detail = (await owner.client.get(`/api/sessions/${copyId}`)).json();
    expect(detail.session.spent_credits).toBe(first.session.spent_credits);
    const [run] = detail.runs as TRun[];
    expect(run?.imported).toBe(true);
    expect(run?.total_credits).toBe(first.runs[0]?.total_credits);
    expect((await storedRuns(owner.client, sessionId))[0]?.imported).toBeUndefined();

    // Documents: named, never attached; the ids point at nothing.
    const attachments = await owner.client.get(`/api/sessions/${copyId}/documents`);
    expect(attachments.json().documents).toEqual([]);
    const copy = await jsonExport(owner.client, copyId);
    const originalIds = new Set(first.documents.map((d) => d.id));
    expect(copy.documents.map((d) => d.name)).toEqual(["solar-roof.md"]);
    for (const passage of copy.runs[0]?.passages ?? []) {
      expect(originalIds.has(passage.document_id)).toBe(false);
      const chunk = await owner.client.get(`/api/documents/passages/${passage.chunk_id}`);
      expect(chunk.statusCode).toBe(404);
    }
  });

  it("an import naming another user's document ids cannot reach them", async () => {
    const theirs = await uploadProcessed(outsider.client, "secret.md", "Top secret plans.");
    const data = handmadeExport();
    data.documents = [{ id: theirs.id, name: "secret.md" }];
    const imported = await importExport(owner.client, data);
    expect(imported.statusCode).toBe(201);
    const copyId = imported.json().session_id as string;
    const copy = await jsonExport(owner.client, copyId);
    expect(copy.documents).toEqual([{ id: expect.any(String), name: "secret.md" }]);
    expect(copy.documents[0]?.id).not.toBe(theirs.id);
    const attachments = await owner.client.get(`/api/sessions/${copyId}/documents`);
    expect(attachments.json().documents).toEqual([]);
  });
});
