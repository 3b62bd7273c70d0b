import {
  SESSION_IDLE_AFTER_MS,
  SESSION_STATUS_TRANSITIONS,
  SESSION_STATUSES,
  type TSessionStatus,
} from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { logIn, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { TestClient } from "./support/client";
import { createSession, runToEnd, sendMessage } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0" });
  await t.app.ready();
});
afterAll(() => t.close());

const patch = (client: TestClient, url: string, body: unknown) =>
  client.request("PATCH", url, body);

describe("creating a session", () => {
  it("answers 201 with the session: defaults filled in, active, nothing spent", async () => {
    const { client, user } = await signUp(t.app);
    const response = await client.post("/api/sessions", {
      title: "  Launch plan  ",
      description: "Plan the launch",
    });
    expect(response.statusCode).toBe(201);
    const { session } = response.json();
    expect(session).toEqual({
      id: expect.any(String),
      // The personal workspace, whose id is the user's (decision 040).
      workspace_id: user.id,
      title: "Launch plan",
      description: "Plan the launch",
      coordinator_model: "coreason",
      manual_agent_selection: false,
      agent_preferences: null,
      status: "active",
      budget_credits: null,
      spent_credits: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      activity: "active",
      last_activity_at: session.updated_at,
      // The tool defaults (decision 058): ask before risky tool calls; every role the read-only built-ins.
      tools: { policy: "ask_risky", roles: {} },
      review_plan: false,
    });
  });

  it("keeps the chosen coordinator, team and budget", async () => {
    const { client } = await signUp(t.app);
    const session = await createSession(client, {
      coordinator_model: "gpt-4.1",
      manual_agent_selection: true,
      agent_preferences: {
        coder: { enabled: true, model: "claude-sonnet-4" },
        critic: { enabled: true },
        designer: { enabled: false, model: null },
      },
      budget_credits: 12.5,
    });
    expect(session).toMatchObject({
      coordinator_model: "gpt-4.1",
      manual_agent_selection: true,
      agent_preferences: {
        coder: { enabled: true, model: "claude-sonnet-4" },
        critic: { enabled: true, model: null },
        designer: { enabled: false, model: null },
      },
      budget_credits: 12.5,
    });
  });

  it.each([
    [{ title: "" }, "validation_failed"],
    [{ title: "x", coordinator_model: "gpt-9" }, "unknown_model"],
    [{ title: "x", coordinator_model: "covision" }, "model_not_suitable"],
    [
      { title: "x", agent_preferences: { coder: { enabled: true, model: "nope" } } },
      "unknown_model",
    ],
    [
      { title: "x", agent_preferences: { coder: { enabled: true, model: "covision" } } },
      "model_not_suitable",
    ],
    [{ title: "x", agent_preferences: { wizard: { enabled: true } } }, "validation_failed"],
    [{ title: "x", manual_agent_selection: true }, "no_agents_selected"],
    [
      {
        title: "x",
        manual_agent_selection: true,
        agent_preferences: { critic: { enabled: true } },
      },
      "no_agents_selected",
    ],
    [{ title: "x", budget_credits: 0 }, "validation_failed"],
    [{ title: "x", budget_credits: 1.234 }, "validation_failed"],
  ])("refuses %j with 400 %s", async (body, code) => {
    const { client } = await signUp(t.app);
    const response = await client.post("/api/sessions", body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe(code);
  });
});

describe("listing sessions", () => {
  it("pages the user's own sessions newest first and searches titles", async () => {
    const { client } = await signUp(t.app);
    const { client: other } = await signUp(t.app);
    await createSession(other, { title: "Someone else's alpha" });
    const created: unknown[] = [];
    for (const title of ["Alpha one", "Beta", "alpha two", "Gamma 100%"]) {
      created.push(await createSession(client, { title }));
    }
    created.push(
      await createSession(client, {
        title: "Staffed",
        manual_agent_selection: true,
        agent_preferences: { coder: { enabled: true, model: "claude-sonnet-4" } },
        budget_credits: 12.5,
      }),
    );
    const everything = (await client.get("/api/sessions")).json();
    expect(everything.total).toBe(5);
    // A listed session is exactly the one the API gave when it was made (times included).
    expect(everything.sessions).toEqual(created.toReversed());
    await client.delete(`/api/sessions/${everything.sessions[0].id}`);
    const all = (await client.get("/api/sessions")).json();
    expect(all.total).toBe(4);
    expect(all.sessions.map((s: { title: string }) => s.title)).toEqual([
      "Gamma 100%",
      "alpha two",
      "Beta",
      "Alpha one",
    ]);
    const page = (await client.get("/api/sessions?page=2&pageSize=3")).json();
    expect(page).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page.sessions.map((s: { title: string }) => s.title)).toEqual(["Alpha one"]);
    const found = (await client.get("/api/sessions?q=ALPHA")).json();
    expect(found.sessions.map((s: { title: string }) => s.title)).toEqual([
      "alpha two",
      "Alpha one",
    ]);
    // LIKE wildcards in the search are literal characters.
    expect((await client.get("/api/sessions?q=%25")).json().total).toBe(1);
  });
});

describe("one session", () => {
  it("comes with its (empty) messages and runs", async () => {
    const { client } = await signUp(t.app);
    const session = await createSession(client);
    const response = await client.get(`/api/sessions/${session.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ session, messages: [], runs: [], last_seq: 0 });
  });

  it("is renamed, re-budgeted and re-staffed by PATCH, with the same checks as creation", async () => {
    const { client } = await signUp(t.app);
    const session = await createSession(client, { budget_credits: 5 });
    const renamed = await patch(client, `/api/sessions/${session.id}`, {
      title: "Renamed",
      budget_credits: null,
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().session).toMatchObject({
      title: "Renamed",
      budget_credits: null,
      description: session.description,
    });
    const bad = await patch(client, `/api/sessions/${session.id}`, {
      manual_agent_selection: true,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe("no_agents_selected");
    const staffed = await patch(client, `/api/sessions/${session.id}`, {
      manual_agent_selection: true,
      agent_preferences: { designer: { enabled: true, model: "cochat" } },
    });
    expect(staffed.json().session).toMatchObject({
      manual_agent_selection: true,
      agent_preferences: { designer: { enabled: true, model: "cochat" } },
    });
  });

  it("is deleted with DELETE, after which it is gone", async () => {
    const { client } = await signUp(t.app);
    const session = await createSession(client);
    const response = await client.delete(`/api/sessions/${session.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deleted: true });
    expect((await client.get(`/api/sessions/${session.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/api/sessions/${session.id}`)).statusCode).toBe(404);
  });
});

describe("status transitions", () => {
  const all = SESSION_STATUSES.flatMap((from) => SESSION_STATUSES.map((to) => [from, to] as const));

  async function sessionIn(client: TestClient, status: TSessionStatus) {
    const session = await createSession(client);
    const path: Record<TSessionStatus, TSessionStatus[]> = {
      active: [],
      paused: ["paused"],
      completed: ["completed"],
      archived: ["archived"],
    };
    for (const step of path[status]) {
      const response = await client.put(`/api/sessions/${session.id}/status`, { status: step });
      expect(response.statusCode).toBe(200);
    }
    return session.id;
  }

  it.each(all)("%s → %s follows the transition table", async (from, to) => {
    const { client } = await signUp(t.app);
    const id = await sessionIn(client, from);
    const response = await client.put(`/api/sessions/${id}/status`, { status: to });
    const allowed = from === to || SESSION_STATUS_TRANSITIONS[from].includes(to);
    if (allowed) {
      expect(response.statusCode).toBe(200);
      expect(response.json().session.status).toBe(to);
    } else {
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({
        code: "invalid_status_transition",
        details: { from, to },
      });
      expect(response.json().error.message).toContain(`cannot become ${to}`);
    }
  });

  it("refuses a status that does not exist with 400", async () => {
    const { client } = await signUp(t.app);
    const session = await createSession(client);
    const response = await client.put(`/api/sessions/${session.id}/status`, { status: "deleted" });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("validation_failed");
    expect(response.json().error.message).toContain("active, paused, completed, archived");
  });

  it("takes new messages only while active", async () => {
    const { client } = await signUp(t.app);
    const id = await sessionIn(client, "paused");
    const response = await client.post("/api/ai/chat", { session_id: id, message: "Hello" });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe("session_not_active");
  });
});

describe("who may use a session", () => {
  it("gives anyone but the owner 404 on every call", async () => {
    const { client: owner } = await signUp(t.app);
    const { client: stranger } = await signUp(t.app);
    const session = await createSession(owner);
    const url = `/api/sessions/${session.id}`;
    const calls = [
      stranger.get(url),
      stranger.put(`${url}/status`, { status: "paused" }),
      patch(stranger, url, { title: "Mine now" }),
      stranger.delete(url),
      stranger.get(`${url}/events`),
      stranger.post("/api/ai/chat", { session_id: session.id, message: "Hi" }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({
        code: "not_found",
        message: "This session does not exist.",
      });
    }
    // Nothing changed for the owner.
    expect((await owner.get(url)).json().session).toEqual(session);
    // A malformed id is a 404 too, never a 500.
    expect((await owner.get("/api/sessions/not-a-uuid")).statusCode).toBe(404);
  });

  it("needs a signed-in user (401) who accepted the agreement (403)", async () => {
    const anonymous = new TestClient(t.app);
    expect((await anonymous.get("/api/sessions")).statusCode).toBe(401);
    expect((await anonymous.post("/api/sessions", { title: "x" })).statusCode).toBe(401);
    const { client } = await signUp(t.app, { acceptAgreement: false });
    for (const response of [
      await client.get("/api/sessions"),
      await client.post("/api/sessions", { title: "x" }),
      await client.post("/api/ai/chat", {
        session_id: "00000000-0000-4000-8000-000000000000",
        message: "x",
      }),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("agreement_required");
    }
  });
});

describe("what a session is doing (activity, decision 032)", () => {
  /** Moves everything the session did `ms` into the past, as if that much time went by. */
  async function age(sessionId: string, ms: number) {
    const shift = `${Math.ceil(ms / 1000)} seconds`;
    await t.db.query(
      `UPDATE sessions SET created_at = created_at - $2::interval,
         updated_at = updated_at - $2::interval WHERE id = $1`,
      [sessionId, shift],
    );
    await t.db.query(
      `UPDATE runs SET created_at = created_at - $2::interval,
         finished_at = finished_at - $2::interval WHERE session_id = $1`,
      [sessionId, shift],
    );
  }

  async function shown(client: TestClient, sessionId: string) {
    const detail = (await client.get(`/api/sessions/${sessionId}`)).json().session;
    const listed = (await client.get("/api/sessions"))
      .json()
      .sessions.find((s: { id: string }) => s.id === sessionId);
    // The list and the detail derive it the same way.
    expect(listed).toEqual(detail);
    return detail as { activity: string; last_activity_at: string; status: string };
  }

  it("is completed once its last run completed, and stays so however long it rests", async () => {
    const { client } = await signUpWithCredits(t.app, 100);
    const session = await createSession(client);
    const { events } = await runToEnd(client, session.id, "Outline a launch plan");
    expect(events.at(-1)?.type).toBe("run.completed");
    const done = await shown(client, session.id);
    expect(done).toMatchObject({ status: "active", activity: "completed" });
    expect(Date.parse(done.last_activity_at)).toBeGreaterThan(Date.parse(session.updated_at));
    await age(session.id, SESSION_IDLE_AFTER_MS * 4);
    expect((await shown(client, session.id)).activity).toBe("completed");
  });

  it("is idle after 30 minutes with nothing done, and active again on any change", async () => {
    const { client } = await signUp(t.app);
    const session = await createSession(client);
    await age(session.id, SESSION_IDLE_AFTER_MS - 60_000);
    expect((await shown(client, session.id)).activity).toBe("active");
    await age(session.id, 60_000);
    expect((await shown(client, session.id)).activity).toBe("idle");
    const renamed = await patch(client, `/api/sessions/${session.id}`, { title: "Renamed" });
    expect(renamed.json().session.activity).toBe("active");
    expect((await shown(client, session.id)).activity).toBe("active");
  });

  it("keeps the user's own status beside it: a paused session still says what it did", async () => {
    const { client } = await signUp(t.app);
    const session = await createSession(client);
    const paused = await client.put(`/api/sessions/${session.id}/status`, { status: "paused" });
    expect(paused.json().session).toMatchObject({ status: "paused", activity: "active" });
    await age(session.id, SESSION_IDLE_AFTER_MS);
    expect(await shown(client, session.id)).toMatchObject({ status: "paused", activity: "idle" });
  });
});

describe("a page answered again (decision 088)", () => {
  it("is the same answer for the same page, and a change in the database shows at once", async () => {
    const { client } = await signUp(t.app);
    const { client: other } = await signUp(t.app);
    const session = await createSession(client, { title: "First" });
    await createSession(client, { title: "Second" });
    const first = await client.get("/api/sessions");
    await other.get("/api/sessions");
    const again = await client.get("/api/sessions");
    expect(again.payload).toBe(first.payload);
    expect(again.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(again.headers["cache-control"]).toBe("no-store");
    // Another page size is another answer, though the rows are the same.
    const wider = (await client.get("/api/sessions?pageSize=30")).json();
    expect(wider).toEqual({ ...first.json(), pageSize: 30 });
    await patch(client, `/api/sessions/${session.id}`, { title: "Renamed" });
    const renamed = (await client.get("/api/sessions")).json();
    expect(renamed.sessions.map((s: { title: string }) => s.title)).toEqual(["Second", "Renamed"]);
    await client.delete(`/api/sessions/${session.id}`);
    expect((await client.get("/api/sessions")).json()).toMatchObject({ total: 1 });
  });

  it("turns a session idle when the clock alone passes 30 minutes, and back when it is set back", async () => {
    const { client } = await signUp(t.app);
    const session = await createSession(client);
    const listed = async () => (await client.get("/api/sessions")).json().sessions[0];
    expect(await listed()).toMatchObject({ id: session.id, activity: "active" });
    const last = Date.parse(session.last_activity_at);
    // Only the clock the server reads is moved; the rows stay as they are.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(last + SESSION_IDLE_AFTER_MS - 1);
      expect(await listed()).toMatchObject({ activity: "active" });
      vi.setSystemTime(last + SESSION_IDLE_AFTER_MS);
      expect(await listed()).toMatchObject({ activity: "idle" });
      vi.setSystemTime(last + SESSION_IDLE_AFTER_MS - 1);
      expect(await listed()).toMatchObject({ activity: "active" });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("one's own page compared by its version (decision 089)", () => {
  const titles = (body: { sessions: { title: string }[] }) => body.sessions.map((s) => s.title);

  it("shows any change to a row at once, whatever wrote it and whichever column", async () => {
    const { client } = await signUp(t.app);
    const session = await createSession(client, { title: "First" });
    await createSession(client, { title: "Second" });
    const first = await client.get("/api/sessions");
    expect((await client.get("/api/sessions")).payload).toBe(first.payload);
    // A column the API never writes, changed by another path (in hundredths of a credit),
    // with updated_at untouched.
    await t.db.query("UPDATE sessions SET spent_credits = 700 WHERE id = $1", [session.id]);
    const spent = (await client.get("/api/sessions")).json();
    expect(spent.sessions.find((s: { id: string }) => s.id === session.id).spent_credits).toBe(7);
    // A row written again with the same values is read again: the same answer.
    await t.db.query("UPDATE sessions SET title = title WHERE id = $1", [session.id]);
    expect((await client.get("/api/sessions")).json()).toEqual(spent);
    // A session outside the page moves the total.
    await createSession(client, { title: "Third" });
    const narrow = (await client.get("/api/sessions?pageSize=1")).json();
    expect(narrow).toMatchObject({ total: 3, pageSize: 1 });
    expect(titles(narrow)).toEqual(["Third"]);
    await t.db.query("DELETE FROM sessions WHERE id = $1", [session.id]);
    expect((await client.get("/api/sessions?pageSize=1")).json()).toMatchObject({ total: 2 });
  });

  it("keeps each sign-in's page apart: a change through one shows on the other at once", async () => {
    const { client, email, password } = await signUp(t.app);
    const { client: laptop } = await logIn(t.app, email, password);
    const session = await createSession(client, { title: "Shared" });
    expect(titles((await client.get("/api/sessions")).json())).toEqual(["Shared"]);
    expect(titles((await laptop.get("/api/sessions")).json())).toEqual(["Shared"]);
    await patch(laptop, `/api/sessions/${session.id}`, { title: "Renamed on the laptop" });
    expect(titles((await client.get("/api/sessions")).json())).toEqual(["Renamed on the laptop"]);
    expect(titles((await laptop.get("/api/sessions")).json())).toEqual(["Renamed on the laptop"]);
  });

  it("refuses a sign-in revoked after its page was kept, on the very next request", async () => {
    const { client, email, password } = await signUp(t.app);
    const { client: other } = await logIn(t.app, email, password);
    await createSession(client, { title: "Kept" });
    const kept = await client.get("/api/sessions");
    expect((await client.get("/api/sessions")).payload).toBe(kept.payload);
    // The other sign-in lists two: its own (current) and the first one's.
    const listed = (await other.get("/api/auth/sign-ins")).json().sign_ins;
    const first = listed.find((s: { current: boolean }) => !s.current);
    expect((await other.delete(`/api/auth/sign-ins/${first.id}`)).statusCode).toBe(200);
    expect((await client.get("/api/sessions")).statusCode).toBe(401);
  });

  it("gives each of several pages asked at once from one sign-in its own rows", async () => {
    const { client } = await signUp(t.app);
    for (const title of ["A", "B", "C", "D"]) await createSession(client, { title });
    const one = (await client.get("/api/sessions?pageSize=2")).json();
    const two = (await client.get("/api/sessions?pageSize=2&page=2")).json();
    expect([titles(one), titles(two)]).toEqual([
      ["D", "C"],
      ["B", "A"],
    ]);
    // One kept page per sign-in: asked together, each request may find the other's kept.
    const asked = await Promise.all(
      [1, 2, 1, 2, 1, 2, 1, 2].map((page) => client.get(`/api/sessions?pageSize=2&page=${page}`)),
    );
    expect(asked.map((r) => r.json())).toEqual([one, two, one, two, one, two, one, two]);
  });
});

describe("activity while a run works (slow simulator)", () => {
  let slow: TestApp;
  beforeAll(async () => {
    slow = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "5" });
    await slow.app.ready();
  });
  afterAll(() => slow.close());

  it("is active while a run works; a stopped run leaves it active, then idle", async () => {
    const { client } = await signUpWithCredits(slow.app, 100);
    const session = await createSession(client);
    const { run_id } = await sendMessage(client, session.id, "Write a long essay");
    const list = (await client.get("/api/sessions")).json();
    expect(list.sessions[0]).toMatchObject({ id: session.id, activity: "active" });
    const stopped = await client.post(`/api/ai/chat/${run_id}/cancel`);
    expect(stopped.json().status).toBe("cancelled");
    const detail = (await client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.runs.at(-1).status).toBe("cancelled");
    expect(detail.session.activity).toBe("active");
    await slow.db.query(
      `UPDATE runs SET created_at = created_at - interval '31 minutes',
         finished_at = finished_at - interval '31 minutes' WHERE session_id = $1`,
      [session.id],
    );
    await slow.db.query(
      "UPDATE sessions SET updated_at = updated_at - interval '31 minutes' WHERE id = $1",
      [session.id],
    );
    expect((await client.get(`/api/sessions/${session.id}`)).json().session.activity).toBe("idle");
  });
});
