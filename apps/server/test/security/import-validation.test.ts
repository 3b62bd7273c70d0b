import type { TSessionExport } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handmadeExport } from "../../../../test-support/export-fixtures";
import { appWithUser, type SignedUp, signUp } from "../support/accounts";
import type { TestApp } from "../support/app";

/**
 * Advisory class: an import as a way around validation. POST /api/sessions/import stored a
 * 1 MB title, a 2 MB description, a 1 MB message, an unknown coordinator and an embedding
 * model as a role, and counted against no quota (decision 052, finding 5). Every field is held to
 * the contract that creates it (the import contract composes them), models must be this
 * server's with the field named, and the export counts against the importer's storage; the
 * copy has a title of its own and says which export it came from (decision 052).
 */

let t: TestApp;
let user: SignedUp;
beforeAll(async () => {
  ({ t, user } = await appWithUser());
});
afterAll(() => t.close());

const importExport = (body: unknown) => user.client.post("/api/sessions/import", body);

async function sessionCount(): Promise<number> {
  const { rows } = await t.db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM sessions WHERE user_id = $1",
    [user.user.id],
  );
  return rows[0]?.n ?? 0;
}

function withSession(patch: Partial<TSessionExport["session"]>): TSessionExport {
  const data = handmadeExport();
  data.session = { ...data.session, ...patch };
  return data;
}

/** The 400 of a field the creation contract refuses, as the import answers it. */
async function refusedAt(body: unknown, path: string) {
  const response = await importExport(body);
  expect(response.statusCode).toBe(400);
  expect(response.json().error.code).toBe("invalid_export");
  expect(response.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
}

describe("every field as strict as where it is created", () => {
  it("refuses oversized titles, descriptions, messages, answers, run fields and names", async () => {
    const before = await sessionCount();
    await refusedAt(withSession({ title: "t".repeat(1024 * 1024) }), "session.title");
    await refusedAt(withSession({ title: "   " }), "session.title");
    await refusedAt(
      withSession({ description: "d".repeat(2 * 1024 * 1024) }),
      "session.description",
    );
    await refusedAt(handmadeExport({ question: "q".repeat(1024 * 1024) }), "messages.0.content");
    await refusedAt(handmadeExport({ question: "q".repeat(20_001) }), "messages.0.content");
    const answer = handmadeExport();
    (answer.messages[1] as { content: string }).content = "a".repeat(100_001);
    await refusedAt(answer, "messages.1.content");
    const step = handmadeExport();
    (step.runs[0]?.steps[0] as { output: string }).output = "o".repeat(100_001);
    await refusedAt(step, "runs.0.steps.0.output");
    const named = handmadeExport();
    named.documents = [{ id: "d1", name: "n".repeat(256) }];
    await refusedAt(named, "documents.0.name");
    await refusedAt(withSession({ budget_credits: 10_000_001 }), "session.budget_credits");
    expect(await sessionCount()).toBe(before);
  });

  it("takes the longest a person can type and a model can write", async () => {
    const data = handmadeExport({ question: "q".repeat(20_000), answer: "a".repeat(100_000) });
    data.session.title = "t".repeat(120);
    data.session.description = "d".repeat(2000);
    const response = await importExport(data);
    expect(response.statusCode).toBe(201);
    expect(response.json().title).toBe(`${"t".repeat(109)} (imported)`);
  });
});

describe("models must be this server's, named by their field", () => {
  it.each([
    [
      "an unknown coordinator",
      { coordinator_model: "no-such-model" },
      'There is no model "no-such-model" (coordinator_model). See GET /api/ai/models for the list.',
      { model: "no-such-model", field: "coordinator_model" },
    ],
    [
      "an embedding model as the coordinator",
      { coordinator_model: "text-embedding-3-small" },
      'There is no model "text-embedding-3-small" (coordinator_model). See GET /api/ai/models for the list.',
      { model: "text-embedding-3-small", field: "coordinator_model" },
    ],
    [
      "an embedding model as a role",
      {
        manual_agent_selection: true,
        agent_preferences: {
          coder: { enabled: true, model: "text-embedding-3-large", instructions: "" },
        },
      },
      'There is no model "text-embedding-3-large" (agent_preferences.coder.model). See GET /api/ai/models for the list.',
      { model: "text-embedding-3-large", field: "agent_preferences.coder.model" },
    ],
  ])("refuses %s", async (_, patch, message, details) => {
    const before = await sessionCount();
    const response = await importExport(withSession(patch));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { code: "unknown_model", message, details } });
    expect(await sessionCount()).toBe(before);
  });
});

describe("storage", () => {
  it("counts an import against the importer's storage until the copy is deleted", async () => {
    const owner = await signUp(t.app);
    const usage = async () =>
      (await owner.client.get("/api/documents")).json().usage as {
        used_bytes: number;
        quota_bytes: number;
      };
    const data = handmadeExport({ answer: "a".repeat(90_000) });
    const bytes = Buffer.byteLength(JSON.stringify(data));
    const imported = await owner.client.post("/api/sessions/import", data);
    expect(imported.statusCode).toBe(201);
    expect((await usage()).used_bytes).toBe(bytes);

    // Documents have filled the rest of the 50 MB: the next import does not fit.
    const { quota_bytes: quota } = await usage();
    await t.db.query(
      `INSERT INTO document_usage (user_id, used_bytes) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET used_bytes = EXCLUDED.used_bytes`,
      [owner.user.id, quota - bytes - 1000],
    );
    const refused = await owner.client.post("/api/sessions/import", data);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      error: {
        code: "document_quota_exceeded",
        message:
          "This export (0.2 MB) does not fit in your storage (50 MB on your plan, shared by documents and imported sessions). Delete documents or imported sessions, or upgrade your plan.",
      },
    });
    // Deleting the imported copy gives its bytes back.
    const deleted = await owner.client.delete(`/api/sessions/${imported.json().session_id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await owner.client.post("/api/sessions/import", data)).statusCode).toBe(201);
  });
});

describe("the copy is told apart from the original", () => {
  it("has a title of its own and says which export it came from", async () => {
    const response = await importExport(handmadeExport({ title: "Library fines" }));
    expect(response.json().title).toBe("Library fines (imported)");
    const { session } = (
      await user.client.get(`/api/sessions/${response.json().session_id}`)
    ).json();
    expect(session.title).toBe("Library fines (imported)");
    expect(session.imported_from_export_at).toBe("2026-01-02T03:04:05.000Z");
    // The sessions page (read in the sign-in's statement, as JSON) says it the same way.
    const listed = (await user.client.get("/api/sessions")).json().sessions as {
      id: string;
      imported_from_export_at?: string;
    }[];
    expect(listed.find((s) => s.id === session.id)?.imported_from_export_at).toBe(
      "2026-01-02T03:04:05.000Z",
    );
    // An import of an import is not "(imported) (imported)".
    const again = await importExport(handmadeExport({ title: "Library fines (imported)" }));
    expect(again.json().title).toBe("Library fines (imported)");
    // A session made here carries no such mark.
    const own = await user.client.post("/api/sessions", { title: "Made here" });
    expect(Object.keys(own.json().session)).not.toContain("imported_from_export_at");
  });
});
