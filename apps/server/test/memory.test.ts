import {
  ERROR_CODES,
  MEMORY_ERROR_CODES,
  MEMORY_EVENTS,
  MEMORY_ROUTES,
  type TMemory,
  type TMemoryProposedEvent,
  type TSubscriptionTier,
  ZMemoryExport,
  ZMemoryList,
  ZRunMemoryProposals,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proposeMemories } from "../src/modules/memory/propose-memories";
import { findRelevantMemories } from "../src/modules/memory/relevant-memories";
import { adminClient, type SignedUp } from "./support/accounts";
import { createTestApp, listenLocally, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { createSession, runToEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";
import { connected, socketOpener } from "./support/sockets";

/**
 * Memory end to end over HTTP: proposals after a simulated run, approve / edit / reject,
 * search, pause, auto-save, the Pro+ gate, ownership, delete all and export.
 */

const ADMIN = { ADMIN_EMAIL: "admin@memory.test", ADMIN_PASSWORD: "memory-admin-passphrase" };
const TASK =
  "I prefer TypeScript with strict types. We use PostgreSQL for storage. Build an order tracker for our bakery.";

let t: TestApp;
let url: string;
const opener = socketOpener(() => url);

beforeAll(async () => {
  t = await createTestApp({ ...ADMIN, SIMULATOR_TOKENS_PER_SECOND: "0" });
  url = await listenLocally(t.app);
});

afterAll(async () => {
  opener.closeAll();
  await t?.close();
});

/** A signed-up user with credits and the tier set through the admin API, as support grants it. */
async function userWithTier(tier: TSubscriptionTier): Promise<SignedUp> {
  const signed = await signUpWithCredits(t.app, 200);
  await setTier(signed.user.id, tier);
  return signed;
}

async function setTier(userId: string, tier: TSubscriptionTier) {
  const admin = await adminClient(t.app, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD);
  const granted = await admin.put(`/api/admin/users/${userId}/tier`, { tier });
  expect(granted.statusCode).toBe(200);
}

/** A completed simulated run, then the engine's memory step for it. */
async function runAndPropose(signed: SignedUp, message = TASK) {
  const session = await createSession(signed.client);
  const { run_id, events } = await runToEnd(signed.client, session.id, message);
  const completed = events.find((e) => e.type === "run.completed");
  expect(completed?.type).toBe("run.completed");
  // The engine proposes after the run, in the background (decision 037): wait for it.
  await t.app.orchestration.control.idle();
  return { sessionId: session.id, runId: run_id };
}

async function proposalsOf(client: TestClient, runId: string): Promise<TMemory[]> {
  const response = await client.get(MEMORY_ROUTES.runProposals(runId));
  expect(response.statusCode).toBe(200);
  return ZRunMemoryProposals.parse(response.json()).memories;
}

async function approved(client: TestClient, q?: string): Promise<TMemory[]> {
  const response = await client.get(
    q === undefined ? MEMORY_ROUTES.list : `${MEMORY_ROUTES.list}?q=${encodeURIComponent(q)}`,
  );
  expect(response.statusCode).toBe(200);
  return ZMemoryList.parse(response.json()).memories;
}

describe("the plan gate", () => {
  it.each(["free", "starter", "pro"] as const)(
    "answers 403 memory_locked to %s users on every route, pointing to the upgrade",
    async (tier) => {
      const { client } = await userWithTier(tier);
      const id = "00000000-0000-4000-8000-000000000000";
      const calls = [
        client.get(MEMORY_ROUTES.list),
        client.delete(MEMORY_ROUTES.list),
        client.get(MEMORY_ROUTES.export),
        client.get(MEMORY_ROUTES.settings),
        client.put(MEMORY_ROUTES.settings, { paused: true }),
        client.get(MEMORY_ROUTES.runProposals(id)),
        client.post(MEMORY_ROUTES.approve(id), {}),
        client.post(MEMORY_ROUTES.reject(id), {}),
        client.request("PATCH", MEMORY_ROUTES.one(id), { text: "x" }),
        client.delete(MEMORY_ROUTES.one(id)),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.statusCode).toBe(403);
        expect(response.json().error).toMatchObject({
          code: MEMORY_ERROR_CODES.locked,
          message: expect.stringContaining("Pro+"),
          details: { tier, upgrade_url: "/billing" },
        });
      }
    },
  );

  it("asks anonymous callers to sign in", async () => {
    const response = await t.app.inject({ method: "GET", url: MEMORY_ROUTES.list });
    expect(response.statusCode).toBe(401);
  });

  it("proposes nothing for a free user and gives a downgraded user's runs no memories", async () => {
    const free = await userWithTier("free");
    const { runId } = await runAndPropose(free);
    await setTier(free.user.id, "pro+");
    expect(await proposalsOf(free.client, runId)).toEqual([]);

    const { runId: second } = await runAndPropose(free);
    const [first] = await proposalsOf(free.client, second);
    expect((await free.client.post(MEMORY_ROUTES.approve(first?.id ?? ""), {})).statusCode).toBe(
      200,
    );
    const relevant = () =>
      findRelevantMemories(t.db, {
        workspaceId: free.user.id,
        userId: free.user.id,
        task: TASK,
        limit: 5,
      });
    expect((await relevant()).length).toBeGreaterThan(0);
    await setTier(free.user.id, "starter");
    expect(await relevant()).toEqual([]);
  });
});

describe("proposals after a run", () => {
  it("proposes the user's facts and preferences from the task, charged, and tells open pages", async () => {
    const signed = await userWithTier("pro+");
    const socket = opener.open({ token: signed.token });
    await connected(socket);
    const told = new Promise<TMemoryProposedEvent>((resolve) =>
      socket.once(MEMORY_EVENTS.proposed, resolve),
    );
    const { sessionId, runId } = await runAndPropose(signed);

    const proposals = await proposalsOf(signed.client, runId);
    expect(proposals.map((m) => [m.kind, m.text])).toEqual([
      ["preference", "You prefer TypeScript with strict types."],
      ["fact", "You use PostgreSQL for storage."],
      ["fact", "You asked the team about an order tracker for your bakery."],
    ]);
    for (const memory of proposals) {
      expect(memory).toMatchObject({
        status: "proposed",
        source_run_id: runId,
        source_session_id: sessionId,
      });
    }
    const event = await told;
    expect(event.run_id).toBe(runId);
    expect(event.session_id).toBe(sessionId);
    expect(event.memories.length).toBeGreaterThan(0);
    for (const memory of event.memories) expect(proposals).toContainEqual(memory);

    // Paid like any call: one hold for the run's memory call, settled on its price.
    const { rows } = await t.db.query<{ status: string; charged: string }>(
      "SELECT status, charged FROM credit_holds WHERE reference = $1",
      [`memory:${runId}`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("settled");
    expect(Number(rows[0]?.charged)).toBeGreaterThan(0);

    // Nothing is kept (or given to plans) before the user approves it.
    expect(await approved(signed.client)).toEqual([]);
    expect(
      await findRelevantMemories(t.db, {
        workspaceId: signed.user.id,
        userId: signed.user.id,
        task: TASK,
        limit: 5,
      }),
    ).toEqual([]);
  });

  it("approves, approves an edit, rejects; rejected lines are not proposed again", async () => {
    const signed = await userWithTier("pro+");
    const { client } = signed;
    const { sessionId, runId } = await runAndPropose(signed);
    const [preference, storage, topic] = await proposalsOf(client, runId);
    if (!preference || !storage || !topic) throw new Error("three proposals expected");
    const waiting = await client.get(`${MEMORY_ROUTES.list}?status=proposed`);
    expect(
      ZMemoryList.parse(waiting.json())
        .memories.map((m) => m.id)
        .sort(),
    ).toEqual([preference.id, storage.id, topic.id].sort());

    const kept = await client.post(MEMORY_ROUTES.approve(preference.id), {});
    expect(kept.json().memory).toMatchObject({ status: "approved", text: preference.text });
    const edited = await client.post(MEMORY_ROUTES.approve(storage.id), {
      text: "  You use PostgreSQL 17\n on a managed host. ",
    });
    expect(edited.json().memory).toMatchObject({
      status: "approved",
      text: "You use PostgreSQL 17 on a managed host.",
    });
    const rejected = await client.post(MEMORY_ROUTES.reject(topic.id), {});
    expect(rejected.json().memory.status).toBe("rejected");

    expect((await approved(client)).map((m) => m.text).sort()).toEqual([
      "You prefer TypeScript with strict types.",
      "You use PostgreSQL 17 on a managed host.",
    ]);
    expect((await proposalsOf(client, runId)).map((m) => m.status)).toEqual([
      "approved",
      "approved",
      "rejected",
    ]);
    const none = await client.get(`${MEMORY_ROUTES.list}?status=proposed`);
    expect(ZMemoryList.parse(none.json()).memories).toEqual([]);

    // The same task again: every line it would propose is known (approved or rejected).
    await proposeMemories(t.app, {
      workspaceId: signed.user.id,
      userId: signed.user.id,
      sessionId,
      runId,
      task: TASK,
      answer: "The tracker.",
      coordinatorModelId: "coreason",
    });
    expect((await proposalsOf(client, runId)).map((m) => m.text)).toEqual([
      preference.text,
      "You use PostgreSQL 17 on a managed host.",
      topic.text,
    ]);

    const tooLong = await client.post(MEMORY_ROUTES.approve(topic.id), { text: "x".repeat(301) });
    expect(tooLong.statusCode).toBe(400);
    const empty = await client.request("PATCH", MEMORY_ROUTES.one(preference.id), { text: " \n " });
    expect(empty.statusCode).toBe(400);
  });

  it("stores proposals as approved with auto-save, and proposes and uses nothing while paused", async () => {
    const signed = await userWithTier("enterprise");
    const { client } = signed;
    expect((await client.get(MEMORY_ROUTES.settings)).json()).toEqual({
      paused: false,
      auto_save: false,
    });
    const saved = await client.put(MEMORY_ROUTES.settings, { auto_save: true });
    expect(saved.json()).toEqual({ paused: false, auto_save: true });

    const { runId } = await runAndPropose(signed);
    const proposals = await proposalsOf(client, runId);
    expect(proposals.length).toBe(3);
    expect(proposals.every((m) => m.status === "approved")).toBe(true);
    expect(await approved(client)).toHaveLength(3);
    const relevant = () =>
      findRelevantMemories(t.db, {
        workspaceId: signed.user.id,
        userId: signed.user.id,
        task: "Add a TypeScript test for the tracker",
        limit: 5,
      });
    expect((await relevant()).map((m) => m.text)).toContain(
      "You prefer TypeScript with strict types.",
    );

    const paused = await client.put(MEMORY_ROUTES.settings, { paused: true });
    expect(paused.json()).toEqual({ paused: true, auto_save: true });
    expect(await relevant()).toEqual([]);
    const { runId: pausedRun } = await runAndPropose(
      signed,
      "I prefer tabs over spaces. Write a CSV parser.",
    );
    expect(await proposalsOf(client, pausedRun)).toEqual([]);

    await client.put(MEMORY_ROUTES.settings, { paused: false });
    expect((await relevant()).length).toBeGreaterThan(0);
  });
});

describe("the Memory page's calls", () => {
  it("searches, edits, deletes one, exports as a download and deletes all", async () => {
    const signed = await userWithTier("pro+");
    const { client } = signed;
    await client.put(MEMORY_ROUTES.settings, { auto_save: true });
    await runAndPropose(signed);
    await runAndPropose(
      signed,
      "My name is Ada Byron. I am a pastry chef. Plan a menu for spring.",
    );
    const all = await approved(client);
    expect(all.map((m) => m.text)).toEqual(
      expect.arrayContaining([
        "Your name is Ada Byron.",
        "You are a pastry chef.",
        "You use PostgreSQL for storage.",
      ]),
    );

    const found = await approved(client, "postgr database");
    expect(found.map((m) => m.text)).toEqual(["You use PostgreSQL for storage."]);
    expect(await approved(client, "croissant")).toEqual([]);
    expect(await approved(client, "!!!")).toEqual([]);

    const chef = all.find((m) => m.text === "You are a pastry chef.");
    if (!chef) throw new Error("the chef memory is missing");
    const edited = await client.request("PATCH", MEMORY_ROUTES.one(chef.id), {
      text: "You are a head pastry chef.",
      kind: "fact",
    });
    expect(edited.statusCode).toBe(200);
    expect((await approved(client, "head")).map((m) => m.id)).toEqual([chef.id]);
    const clash = await client.request("PATCH", MEMORY_ROUTES.one(chef.id), {
      text: "your name is ada byron.",
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.code).toBe(MEMORY_ERROR_CODES.duplicate);

    expect((await client.delete(MEMORY_ROUTES.one(chef.id))).statusCode).toBe(200);
    expect((await approved(client)).some((m) => m.id === chef.id)).toBe(false);
    expect((await client.delete(MEMORY_ROUTES.one(chef.id))).statusCode).toBe(404);

    const exported = await client.get(MEMORY_ROUTES.export);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers["content-disposition"]).toBe(
      'attachment; filename="cohort-memories.json"',
    );
    const file = ZMemoryExport.parse(exported.json());
    expect(file.settings).toEqual({ paused: false, auto_save: true });
    expect(file.memories.map((m) => m.id).sort()).toEqual(
      (await approved(client)).map((m) => m.id).sort(),
    );

    const cleared = await client.delete(MEMORY_ROUTES.list);
    expect(cleared.json().deleted).toBe(file.memories.length);
    expect(await approved(client)).toEqual([]);
  });

  it("answers 404 for another user's memories and runs", async () => {
    const owner = await userWithTier("pro+");
    const other = await userWithTier("pro+");
    const { runId } = await runAndPropose(owner);
    const [memory] = await proposalsOf(owner.client, runId);
    if (!memory) throw new Error("a proposal expected");
    const attempts = [
      other.client.get(MEMORY_ROUTES.runProposals(runId)),
      other.client.post(MEMORY_ROUTES.approve(memory.id), {}),
      other.client.post(MEMORY_ROUTES.reject(memory.id), {}),
      other.client.request("PATCH", MEMORY_ROUTES.one(memory.id), { text: "Taken over." }),
      other.client.delete(MEMORY_ROUTES.one(memory.id)),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe(ERROR_CODES.notFound);
    }
    expect((await other.client.delete(MEMORY_ROUTES.list)).json().deleted).toBe(0);
    expect((await proposalsOf(owner.client, runId))[0]).toEqual(memory);
  });
});
