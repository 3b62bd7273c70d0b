import {
  APPROVAL_ERROR_CODES,
  APPROVAL_MESSAGES,
  type TRunEvent,
  type TToolApproval,
  type TToolApprovalsResponse,
  WORKSPACE_ERROR_CODES,
  WORKSPACE_MESSAGES,
} from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, restartableInstances, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import * as runs from "./support/runs";
import { setCredits, signUpWithCredits } from "./support/runs-credits";
import { addTestNotesProvider, coderWithNotes, type TestNotes } from "./support/tools";
import { createTeam, type Team } from "./support/workspaces";

/**
 * Approvals (decision 059) through the API and real runs of the simulator: a
 * write call waits for a person, who may edit its arguments, deny it, or always allow the
 * tool in the session; viewers read, strangers get 404; an unanswered request expires as
 * denied; the pause survives a restart and the run completes once.
 */
const TASK = "Create a note about the launch plan for the bakery.";
const ENV = { SIMULATOR_TOKENS_PER_SECOND: "0" };
const RUN_MS = 60_000;

let t: TestApp;
let notes: TestNotes;
let owner: SignedUp;
let member: SignedUp;
let viewer: SignedUp;
let outsider: SignedUp;
let team: Team;

beforeAll(async () => {
  t = await createTestApp(ENV);
  notes = addTestNotesProvider(t.app);
  [owner, member, viewer, outsider] = [
    await signUp(t.app),
    await signUp(t.app, { firstName: "Mia", lastName: "Member" }),
    await signUp(t.app),
    await signUp(t.app),
  ];
  team = await createTeam(t.app, owner.user.id, [
    { userId: member.user.id, role: "member" },
    { userId: viewer.user.id, role: "viewer" },
  ]);
  await setCredits(t.app, team.id, 500);
}, RUN_MS);
afterAll(() => t?.close());

const decide = (client: TestClient, sessionId: string, approvalId: string, body: object) =>
  client.post(`/api/sessions/${sessionId}/approvals/${approvalId}`, body);

async function firstApproval(client: TestClient, sessionId: string, runId: string) {
  return (await runs.waitForEvent(
    client,
    sessionId,
    (e) => e.run_id === runId && e.type === "tool.approval",
    RUN_MS,
  )) as Extract<TRunEvent, { type: "tool.approval" }>;
}

async function teamSession(policy?: "ask_all" | "ask_risky") {
  return runs.createSession(owner.client, { workspace_id: team.id, ...coderWithNotes(policy) });
}

describe("a write call waiting for approval", () => {
  it("pauses its lane; a member approves with edited arguments, the tool runs with them once, and the decision is audited", async () => {
    const session = await teamSession();
    const calls = notes.calls.length;
    const { run_id } = await runs.sendMessage(member.client, session.id, TASK);
    const asked = await firstApproval(member.client, session.id, run_id);
    expect(asked).toMatchObject({
      tool: "create_note",
      risk: "write",
      reason: "policy",
      source: { kind: "builtin" },
    });
    expect(notes.calls.length).toBe(calls);

    // Whoever can see the session reads what waits; a stranger cannot.
    for (const who of [owner, member, viewer]) {
      const listed = await who.client.get(`/api/sessions/${session.id}/approvals`);
      expect(listed.statusCode).toBe(200);
      const body = listed.json() as TToolApprovalsResponse;
      expect(body.approvals.map((a) => [a.id, a.status, a.tool])).toEqual([
        [asked.approval_id, "pending", "create_note"],
      ]);
      expect(body.always_allowed).toEqual([]);
    }
    const hidden = await outsider.client.get(`/api/sessions/${session.id}/approvals`);
    expect(hidden.statusCode).toBe(404);

    // A viewer may not decide (403); a stranger hears nothing exists (404).
    const byViewer = await decide(viewer.client, session.id, asked.approval_id, {
      decision: "approve",
    });
    expect(byViewer.statusCode).toBe(403);
    expect(byViewer.json().error).toMatchObject({
      code: WORKSPACE_ERROR_CODES.roleTooLow,
      message: WORKSPACE_MESSAGES.viewerReadOnly,
    });
    const byStranger = await decide(outsider.client, session.id, asked.approval_id, {
      decision: "approve",
    });
    expect(byStranger.statusCode).toBe(404);
    expect(byStranger.json().error.message).toBe("This session does not exist.");

    const edited = { title: "Launch plan (edited)", body: "Open on Monday." };
    const approved = await decide(member.client, session.id, asked.approval_id, {
      decision: "approve",
      args: edited,
    });
    expect(approved.statusCode).toBe(200);
    const approval = approved.json().approval as TToolApproval;
    expect(approval).toMatchObject({
      id: asked.approval_id,
      status: "approved",
      decided_by: member.user.id,
      decided_by_name: member.user.displayName,
      decided_args: edited,
      always: false,
      note: null,
    });
    expect(approval.decided_at).not.toBeNull();

    // Once only: the second answer is a 409 that says what happened.
    const again = await decide(owner.client, session.id, asked.approval_id, { decision: "deny" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: APPROVAL_ERROR_CODES.decided,
      message: "This request was approved already.",
    });

    const events = await runs.waitForRunEnd(member.client, session.id, run_id, RUN_MS);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(runs.eventsOf(events, "tool.approval.decided")).toMatchObject([
      {
        approval_id: asked.approval_id,
        decision: "approved",
        by_user_id: member.user.id,
        by_name: member.user.displayName,
        args: edited,
        always: false,
        note: null,
      },
    ]);
    expect(runs.eventsOf(events, "tool.result")).toMatchObject([
      { tool: "create_note", status: "completed", error: null },
    ]);
    expect(notes.calls.slice(calls)).toEqual([{ tool: "create_note", args: edited }]);
    // Nothing waits any more.
    const after = await member.client.get(`/api/sessions/${session.id}/approvals`);
    expect((after.json() as TToolApprovalsResponse).approvals).toEqual([]);

    const audit = await owner.client.get(`/api/workspaces/${team.id}/audit?limit=100`);
    expect(audit.statusCode).toBe(200);
    const entry = (audit.json().entries as { action: string; target: string }[]).find(
      (e) => e.action === "tool.approved",
    );
    expect(entry).toMatchObject({
      action: "tool.approved",
      target: "create_note",
      actor_id: member.user.id,
      details: {
        session_id: session.id,
        run_id,
        approval_id: asked.approval_id,
        risk: "write",
        reason: "policy",
        args_edited: true,
        always: false,
      },
    });
  });

  it("denied: the tool is not called, the lane and the model hear who denied it, and the run goes on", async () => {
    const session = await teamSession();
    const calls = notes.calls.length;
    const { run_id } = await runs.sendMessage(member.client, session.id, TASK);
    const asked = await firstApproval(member.client, session.id, run_id);
    const bad = await decide(member.client, session.id, asked.approval_id, {
      decision: "deny",
      args: { title: "x", body: "y" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(APPROVAL_MESSAGES.argsOnlyWhenApproving);
    const denied = await decide(owner.client, session.id, asked.approval_id, { decision: "deny" });
    expect(denied.statusCode).toBe(200);
    const note = `Denied by ${owner.user.displayName}: the tool was not called.`;
    expect(denied.json().approval).toMatchObject({ status: "denied", note });

    const events = await runs.waitForRunEnd(member.client, session.id, run_id, RUN_MS);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(runs.eventsOf(events, "tool.approval.decided")).toMatchObject([
      { decision: "denied", by_name: owner.user.displayName, note },
    ]);
    expect(runs.eventsOf(events, "tool.result")).toMatchObject([
      { tool: "create_note", status: "denied", error: { message: note } },
    ]);
    expect(notes.calls.length).toBe(calls);
  });

  it("always allowed in the session: the next run's call goes without asking; other sessions still ask", async () => {
    const session = await teamSession();
    const first = await runs.sendMessage(member.client, session.id, TASK);
    const asked = await firstApproval(member.client, session.id, first.run_id);
    const approved = await decide(member.client, session.id, asked.approval_id, {
      decision: "approve",
      always: true,
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().approval).toMatchObject({ status: "approved", always: true });
    await runs.waitForRunEnd(member.client, session.id, first.run_id, RUN_MS);
    const listed = await member.client.get(`/api/sessions/${session.id}/approvals`);
    expect((listed.json() as TToolApprovalsResponse).always_allowed).toEqual(["create_note"]);

    const calls = notes.calls.length;
    const { events } = await runs.runToEnd(member.client, session.id, TASK, RUN_MS);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(runs.eventsOf(events, "tool.approval")).toEqual([]);
    expect(runs.eventsOf(events, "tool.result")).toMatchObject([
      { tool: "create_note", status: "completed" },
    ]);
    expect(notes.calls.slice(calls).map((c) => c.tool)).toEqual(["create_note"]);

    const other = await teamSession();
    const third = await runs.sendMessage(member.client, other.id, TASK);
    const askedAgain = await firstApproval(member.client, other.id, third.run_id);
    expect(askedAgain.tool).toBe("create_note");
    await decide(member.client, other.id, askedAgain.approval_id, { decision: "deny" });
    await runs.waitForRunEnd(member.client, other.id, third.run_id, RUN_MS);
  });

  it("reads go on without asking under ask_risky; ask_all asks for them too", async () => {
    const session = await teamSession("ask_all");
    const { run_id } = await runs.sendMessage(
      member.client,
      session.id,
      "List notes about the bakery.",
    );
    const asked = await firstApproval(member.client, session.id, run_id);
    expect(asked).toMatchObject({ tool: "list_notes", risk: "read", reason: "policy" });
    await decide(member.client, session.id, asked.approval_id, { decision: "approve" });
    const events = await runs.waitForRunEnd(member.client, session.id, run_id, RUN_MS);
    expect(runs.eventsOf(events, "tool.result")).toMatchObject([
      { tool: "list_notes", status: "completed" },
    ]);

    const risky = await teamSession("ask_risky");
    const { events: quiet } = await runs.runToEnd(
      member.client,
      risky.id,
      "List notes about the bakery.",
      RUN_MS,
    );
    expect(runs.eventsOf(quiet, "tool.approval")).toEqual([]);
    expect(runs.eventsOf(quiet, "tool.result")).toMatchObject([
      { tool: "list_notes", status: "completed" },
    ]);
  });
});

describe("the approval policy", () => {
  it("never_ask is for owners and admins: a member gets 403 creating or switching to it", async () => {
    const asMember = await member.client.post("/api/sessions", {
      title: "No asking",
      workspace_id: team.id,
      ...coderWithNotes("never_ask"),
    });
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json().error).toEqual({
      code: APPROVAL_ERROR_CODES.policyForbidden,
      message: APPROVAL_MESSAGES.policyForbidden,
      details: { role: "member", needs: "admin" },
    });
    const session = await teamSession();
    const patch = await member.client.request("PATCH", `/api/sessions/${session.id}`, {
      tools: coderWithNotes("never_ask").tools,
    });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().error.code).toBe(APPROVAL_ERROR_CODES.policyForbidden);

    const byOwner = await owner.client.request("PATCH", `/api/sessions/${session.id}`, {
      tools: coderWithNotes("never_ask").tools,
    });
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json().session.tools.policy).toBe("never_ask");
    // A member changing something else keeps what the owner chose.
    const kept = await member.client.request("PATCH", `/api/sessions/${session.id}`, {
      tools: coderWithNotes("never_ask").tools,
      title: "Renamed",
    });
    expect(kept.statusCode).toBe(200);

    // Under never_ask the write call runs without asking.
    const calls = notes.calls.length;
    const { events } = await runs.runToEnd(member.client, session.id, TASK, RUN_MS);
    expect(runs.eventsOf(events, "tool.approval")).toEqual([]);
    expect(notes.calls.slice(calls).map((c) => c.tool)).toEqual(["create_note"]);
  });
});

describe("an unanswered request", () => {
  let short: TestApp;
  let shortNotes: TestNotes;
  beforeAll(async () => {
    short = await createTestApp({ ...ENV, APPROVAL_TIMEOUT_SECONDS: "1" });
    shortNotes = addTestNotesProvider(short.app);
  }, RUN_MS);
  afterAll(() => short?.close());

  it("expires as denied with a clear note; answering it later is a 409", async () => {
    const me = await signUpWithCredits(short.app, 100);
    const session = await runs.createSession(me.client, coderWithNotes());
    const { events } = await runs.runToEnd(me.client, session.id, TASK, RUN_MS);
    expect(events.at(-1)?.type).toBe("run.completed");
    const note =
      "Nobody answered the approval request within 1 second: the call was denied and the tool was not called.";
    const [decided] = runs.eventsOf(events, "tool.approval.decided");
    expect(decided).toMatchObject({ decision: "expired", by_user_id: null, by_name: null, note });
    expect(runs.eventsOf(events, "tool.result")).toMatchObject([
      { tool: "create_note", status: "denied", error: { message: note } },
    ]);
    expect(shortNotes.calls).toEqual([]);
    const late = await decide(me.client, session.id, decided?.approval_id ?? "", {
      decision: "approve",
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(
      "This request expired before anyone answered it: the call was denied.",
    );
  });
});

describe("a restart during a pending approval", () => {
  const instances = restartableInstances(ENV);
  const start = async (store: TestNotes): Promise<FastifyInstance> => {
    const app = await instances.start();
    addTestNotesProvider(app, store);
    return app;
  };

  it(
    "the resumed lane finds the same request (not asked twice); approving it completes the run once",
    async () => {
      const store: TestNotes = { notes: [], calls: [] };
      const first = await start(store);
      const me = await signUpWithCredits(first, 100);
      const session = await runs.createSession(me.client, coderWithNotes());
      const { run_id } = await runs.sendMessage(me.client, session.id, TASK);
      const asked = await firstApproval(me.client, session.id, run_id);
      // The instance goes away while the lane waits: its run is handed on, not ended.
      await first.close();

      const second = await start(store);
      try {
        // The same signed-in browser, now talking to the new instance.
        const client = me.client.on(second);
        // The resumed lane asks again: with the same request, still pending.
        await runs.waitForResume(client, session.id, run_id, RUN_MS);
        const listed = await client.get(`/api/sessions/${session.id}/approvals`);
        expect((listed.json() as TToolApprovalsResponse).approvals.map((a) => a.id)).toEqual([
          asked.approval_id,
        ]);
        const approved = await decide(client, session.id, asked.approval_id, {
          decision: "approve",
        });
        expect(approved.statusCode).toBe(200);
        const events = await runs.waitForRunEnd(client, session.id, run_id, RUN_MS);
        expect(runs.eventsOf(events, "run.completed")).toHaveLength(1);
        expect(new Set(runs.eventsOf(events, "tool.approval").map((e) => e.approval_id))).toEqual(
          new Set([asked.approval_id]),
        );
        expect(runs.eventsOf(events, "tool.approval.decided")).toMatchObject([
          { approval_id: asked.approval_id, decision: "approved" },
        ]);
        expect(store.calls.map((c) => c.tool)).toEqual(["create_note"]);
        const all = await runs.sessionEvents(client, session.id);
        expect(all.filter((e) => e.type === "run.completed")).toHaveLength(1);
      } finally {
        await second.close();
      }
    },
    RUN_MS * 2,
  );
});
