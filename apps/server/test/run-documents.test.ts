import {
  SESSION_DOCUMENTS_MAX,
  type TRun,
  type TRunEvent,
  type TRunEventOf,
  type TRunPassage,
  type TSessionDocument,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { SOLAR, uploadProcessed } from "./support/documents";
import { createSession, runToEnd, sessionEvents } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";
import { untilIdle } from "./support/wait";

/**
 * Documents in runs (decision 037), on the built-in simulator: attaching documents to a
 * session, the plan naming them per sub-task, passages given to the steps and numbered once
 * per run, [n] citations in drafts and the final answer, and all of it kept for replay.
 */

const BREAD =
  "Sourdough bread needs a starter fed twelve hours before baking. Bake the loaf at 240 degrees for forty minutes.";

let t: TestApp;
let a: SignedUp;
let b: SignedUp;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  await t.app.ready();
  a = await signUpWithCredits(t.app, 500);
  b = await signUp(t.app);
});
afterAll(async () => {
  await t?.close();
});

const documentsOf = async (client: TestClient, sessionId: string) => {
  const response = await client.get(`/api/sessions/${sessionId}/documents`);
  expect(response.statusCode).toBe(200);
  return (response.json().documents as TSessionDocument[]).map((d) => d.id);
};

const attach = (client: TestClient, sessionId: string, ids: unknown) =>
  client.put(`/api/sessions/${sessionId}/documents`, { document_ids: ids });

const eventsOfType = <K extends TRunEvent["type"]>(events: readonly TRunEvent[], type: K) =>
  events.filter((e): e is TRunEventOf<K> => e.type === type);

describe("session attachments", () => {
  it("attaches the owner's documents, replaces the set, and detaches", async () => {
    const solar = await uploadProcessed(a.client, "solar-roof.md", SOLAR);
    const bread = await uploadProcessed(a.client, "bread.txt", BREAD);
    const session = await createSession(a.client);
    expect(await documentsOf(a.client, session.id)).toEqual([]);

    const attached = await attach(a.client, session.id, [solar.id, bread.id, solar.id]);
    expect(attached.statusCode).toBe(200);
    const listed = attached.json().documents as TSessionDocument[];
    expect(listed.map((d) => [d.id, d.name, d.status])).toEqual([
      [solar.id, "solar-roof.md", "ready"],
      [bread.id, "bread.txt", "ready"],
    ]);
    expect(await documentsOf(a.client, session.id)).toEqual([solar.id, bread.id]);

    // Replacing keeps what stays (with its attachment time) and drops the rest.
    const kept = listed[1] as TSessionDocument;
    const replaced = await attach(a.client, session.id, [bread.id]);
    expect(replaced.json().documents).toEqual([kept]);

    expect((await attach(a.client, session.id, [])).json().documents).toEqual([]);
    expect(await documentsOf(a.client, session.id)).toEqual([]);
  });

  it("refuses another user's documents and sessions with 404, changing nothing", async () => {
    const mine = await uploadProcessed(a.client, "mine.txt", BREAD);
    const theirs = await uploadProcessed(b.client, "theirs.txt", BREAD);
    const session = await createSession(a.client);
    await attach(a.client, session.id, [mine.id]);

    const foreign = await attach(a.client, session.id, [mine.id, theirs.id]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("document_not_found");
    const unknown = await attach(a.client, session.id, ["not-a-uuid"]);
    expect(unknown.statusCode).toBe(404);
    expect(await documentsOf(a.client, session.id)).toEqual([mine.id]);

    // B cannot read or change A's session's attachments, even with B's own documents.
    expect((await b.client.get(`/api/sessions/${session.id}/documents`)).statusCode).toBe(404);
    const taken = await attach(b.client, session.id, [theirs.id]);
    expect(taken.statusCode).toBe(404);
    expect(taken.json().error.code).toBe("not_found");
    expect(await documentsOf(a.client, session.id)).toEqual([mine.id]);
  });

  it("validates the body", async () => {
    const session = await createSession(a.client);
    expect((await attach(a.client, session.id, "all")).statusCode).toBe(400);
    const tooMany = Array.from(
      { length: SESSION_DOCUMENTS_MAX + 1 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    );
    expect((await attach(a.client, session.id, tooMany)).statusCode).toBe(400);
  });
});

describe("a run with attached documents", () => {
  it("plans with the documents, gives and cites passages, and keeps them for replay", async () => {
    const solar = await uploadProcessed(a.client, "solar-roof.md", SOLAR);
    const bread = await uploadProcessed(a.client, "bread.txt", BREAD);
    const session = await createSession(a.client);
    await attach(a.client, session.id, [solar.id, bread.id]);

    const { events, ...started } = await runToEnd(
      a.client,
      session.id,
      "Plan the installation of solar panels on our roof",
    );
    const completed = eventsOfType(events, "run.completed")[0];
    expect(completed, events.map((e) => e.type).join(", ")).toBeDefined();

    // The plan lists the attached documents and names, per sub-task, the one it needs: the
    // solar document matches the request; the Critic reviews drafts and needs none.
    const plan = eventsOfType(events, "run.plan")[0]?.plan;
    expect(plan?.documents).toEqual([
      { id: solar.id, name: "solar-roof.md" },
      { id: bread.id, name: "bread.txt" },
    ]);
    const agentSteps = plan?.steps.filter((s) => s.phase === "agent") ?? [];
    expect(agentSteps.length).toBeGreaterThan(0);
    for (const step of agentSteps) expect(step.document_ids).toEqual([solar.id]);
    for (const step of plan?.steps.filter((s) => s.phase === "review") ?? []) {
      expect(step.document_ids).toEqual([]);
    }

    // Each agent's lane got passages from the solar document, right after it started, with
    // one numbering for the whole run (the same chunk keeps its number).
    const given = eventsOfType(events, "step.passages");
    expect(given.length).toBeGreaterThanOrEqual(agentSteps.length);
    const byNumber = new Map<number, TRunPassage>();
    for (const event of given) {
      const startedAt = events.findIndex(
        (e) => e.type === "agent.started" && e.call_id === event.call_id,
      );
      expect(startedAt).toBeGreaterThanOrEqual(0);
      expect(events.indexOf(event)).toBeGreaterThan(startedAt);
      for (const passage of event.passages) {
        expect(passage.document_id).toBe(solar.id);
        expect(passage.document_name).toBe("solar-roof.md");
        const known = byNumber.get(passage.n);
        if (known) expect(known).toEqual(passage);
        byNumber.set(passage.n, passage);
      }
    }
    expect(new Set([...byNumber.values()].map((p) => p.chunk_id)).size).toBe(byNumber.size);

    // The simulated agents quote their best passage and cite it.
    const done = eventsOfType(events, "agent.done").filter((e) => e.kind === "agent");
    for (const event of done) expect(event.cited?.length ?? 0).toBeGreaterThan(0);

    // The final answer cites [n], and the citation points at the chunk whose text it quotes.
    const answer = completed?.message.content ?? "";
    const citations = completed?.citations ?? [];
    expect(citations.length).toBeGreaterThan(0);
    for (const citation of citations) {
      expect(answer).toContain(`[${citation.n}]`);
      expect(byNumber.get(citation.n)).toEqual(citation);
      const stored = await a.client.get(`/api/documents/passages/${citation.chunk_id}`);
      expect(stored.statusCode).toBe(200);
      expect(stored.json().passage.document_id).toBe(solar.id);
    }
    const quoted = /“([^”]+)” \[(\d+)\]\s*$/.exec(answer);
    expect(quoted, answer).not.toBeNull();
    const cited = citations.find((c) => c.n === Number(quoted?.[2]));
    const chunk = await a.client.get(`/api/documents/passages/${cited?.chunk_id}`);
    expect(chunk.json().passage.text.replace(/\s+/g, " ")).toContain(quoted?.[1]);
    expect(answer).not.toContain("Sourdough");

    // Replay: the run as stored carries the same passages, per step what it got and cited,
    // and the answer's citations.
    const detail = (await a.client.get(`/api/sessions/${session.id}`)).json();
    const run = detail.runs.find((r: TRun) => r.id === started.run_id) as TRun;
    expect(run.passages).toEqual([...byNumber.values()].sort((x, y) => x.n - y.n));
    expect(run.cited).toEqual(citations.map((c) => c.n));
    expect(run.plan?.documents).toEqual(plan?.documents);
    for (const event of given) {
      const step = run.steps.find((s) => s.id === event.call_id);
      expect(step?.passages).toEqual(event.passages.map((p) => p.n));
      const doneEvent = done.find((e) => e.call_id === event.call_id);
      if (doneEvent) expect(step?.cited).toEqual(doneEvent.cited);
    }
    const synthesis = run.steps.find((s) => s.kind === "synthesis");
    expect(synthesis?.cited).toEqual(run.cited);

    // A re-run of a step works from the same numbered passages as its first version.
    const first = given.find((e) => e.kind === "agent") as TRunEventOf<"step.passages">;
    const rerun = await a.client.post(
      `/api/sessions/${session.id}/runs/${started.run_id}/steps/${first.step_id}/rerun`,
      { model: "coquick", review: false },
    );
    expect(rerun.statusCode).toBe(202);
    const callId = rerun.json().call_id as string;
    await untilIdle(t.app, started.run_id);
    const after = await sessionEvents(a.client, session.id, events.at(-1)?.seq ?? 0);
    const again = eventsOfType(after, "step.passages").find((e) => e.call_id === callId);
    expect(again?.passages).toEqual(first.passages);
    const rerunDone = eventsOfType(after, "agent.done").find((e) => e.call_id === callId);
    expect(rerunDone?.cited?.length ?? 0).toBeGreaterThan(0);

    // An answer re-written with that version gets the passages its drafts cite, and cites.
    const rewrite = await a.client.post(
      `/api/sessions/${session.id}/runs/${started.run_id}/steps/${first.step_id}/versions/${rerun.json().version}/synthesize`,
    );
    expect(rewrite.statusCode).toBe(202);
    const rewriteId = rewrite.json().call_id as string;
    await untilIdle(t.app, started.run_id);
    const rewritten = eventsOfType(
      await sessionEvents(a.client, session.id, after.at(-1)?.seq ?? 0),
      "final.version",
    ).find((e) => e.call_id === rewriteId && e.status === "completed");
    expect(rewritten?.citations?.length ?? 0).toBeGreaterThan(0);
    for (const citation of rewritten?.citations ?? []) {
      expect(byNumber.get(citation.n)).toEqual(citation);
    }
  });

  it("runs as before without attached documents", async () => {
    const session = await createSession(a.client);
    const { events } = await runToEnd(a.client, session.id, "Plan a small product launch");
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(eventsOfType(events, "step.passages")).toEqual([]);
    expect(eventsOfType(events, "run.plan")[0]?.plan.documents).toBeUndefined();
    const completed = eventsOfType(events, "run.completed")[0];
    expect(completed?.citations).toBeUndefined();
    const detail = (await a.client.get(`/api/sessions/${session.id}`)).json();
    const run = detail.runs.at(-1) as TRun;
    expect(run.passages).toEqual([]);
    expect(run.cited).toEqual([]);
  });
});
