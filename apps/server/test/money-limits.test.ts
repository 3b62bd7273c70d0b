import { hundredthsOf as h, type TRunEvent, type TRunStep } from "@cohort/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { type CreditsDeps, creditsDeps } from "../src/modules/credits/credits-deps";
import { getBalance } from "../src/modules/credits/get-balance";
import { sumLedger } from "../src/modules/credits/list-ledger";
import { reserveCredits } from "../src/modules/credits/reserve-credits";
import { settleHold } from "../src/modules/credits/settle-hold";
import { createTestAccessToken } from "./support/access-tokens";
import { type SignedUp, signUp } from "./support/accounts";
import { appForBlock, type TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import { createSession, eventsOf, runToEnd, waitForRunEnd } from "./support/runs";
import { balanceOf, setCredits, signUpWithCredits } from "./support/runs-credits";
import { createCrew } from "./support/workspaces";

/**
 * Holds that grow with the answer, refusals that tell the truth, the personal limit, the
 * cost estimate and free simulated answers (docs/decisions/053-holds-that-grow.md). Runs
 * cost money here because the test app charges simulated calls (SIMULATOR_CHARGES=1), except
 * in "simulated answers", which runs the default.
 */

const HEAVY = { SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" };

async function runsOf(client: TestClient, sessionId: string) {
  const detail = (await client.get(`/api/sessions/${sessionId}`)).json();
  return detail.runs as { status: string; total_credits: number; steps: TRunStep[] }[];
}

/** Asks for a run the money cannot pay: the 402's error. */
async function refusedRun(client: TestClient, sessionId: string) {
  const refused = await client.post("/api/ai/chat", {
    session_id: sessionId,
    message: "Plan a product launch",
  });
  expect(refused.statusCode).toBe(402);
  return refused.json().error;
}

/** balance = Σ ledger, nothing held, nothing negative. */
async function expectSettled(t: Pick<TestApp, "db">, accountId: string) {
  const balance = await getBalance(t.db, accountId);
  expect(balance.balance).toBeCloseTo(await sumLedger(t.db, accountId), 10);
  expect(balance.balance).toBeGreaterThanOrEqual(0);
  expect(balance.held).toBe(0);
}

describe("holds that grow with the answer", () => {
  const t = appForBlock(HEAVY);
  let deps: CreditsDeps;
  beforeAll(() => {
    deps = creditsDeps(t.app);
  });

  async function team(members: number, pool: number) {
    const crew = await createCrew(t.app, members);
    await setCredits(t.app, crew.id, pool);
    return crew;
  }

  it("completes a run under a member cap of 10 with 1.77 used", async () => {
    const crew = await team(1, 500);
    const bob = crew.members[0] as SignedUp;
    const cap = await crew.owner.client.put(
      `/api/workspaces/${crew.id}/members/${bob.user.id}/cap`,
      { monthly_cap_credits: 10 },
    );
    expect(cap.statusCode).toBe(200);
    const payer = { accountId: crew.id, memberId: bob.user.id };
    const used = await reserveCredits(deps, payer, h(1.77), `earlier-${bob.user.id}`);
    await settleHold(deps, used.id, h(1.77));

    const session = await createSession(bob.client, { workspace_id: crew.id });
    const { events } = await runToEnd(bob.client, session.id, "Plan a small launch party", 60_000);
    expect(events.at(-1)?.type).toBe("run.completed");
    const credits = (await bob.client.get(`/api/workspaces/${crew.id}/credits`)).json();
    expect(credits.my_spent_this_month).toBeLessThanOrEqual(10);
    expect(credits.my_held).toBe(0);
    await expectSettled(t, crew.id);
  });

  it("spends a balance of 5.98 to the end of the run or to the limit, never below zero", async () => {
    const me = await signUpWithCredits(t.app, 5.98);
    const session = await createSession(me.client);
    const { events } = await runToEnd(me.client, session.id, "Plan a product launch", 60_000);
    const end = events.at(-1) as TRunEvent;
    const [run] = await runsOf(me.client, session.id);
    const stopped = run?.steps.filter((s) => s.error?.code === "stopped_at_limit") ?? [];
    if (end.type !== "run.completed") {
      // Only the balance may end it, and then the call it stopped kept its text.
      expect(stopped.length).toBeGreaterThan(0);
    }
    for (const step of stopped) {
      expect(step).toMatchObject({ status: "stopped", limit: "balance" });
      expect(step.output.length).toBeGreaterThan(0);
      expect(step.credits).toBeGreaterThan(0);
    }
    const balance = await balanceOf(t.app, me.user.id);
    const charged = run?.steps.reduce((sum, s) => sum + h(s.credits), 0) ?? 0;
    // Charged exactly what the steps say they cost, and never below zero.
    expect(h(5.98) - h(balance.balance)).toBe(charged);
    expect(h(run?.total_credits ?? -1)).toBe(charged);
    await expectSettled(t, me.user.id);
  });

  it("stops a call at the balance with its text kept and charged for what it produced", async () => {
    const me = await signUpWithCredits(t.app, 0.4);
    // A cheap coordinator and one agent whose answer costs more than the balance leaves.
    const session = await createSession(me.client, {
      coordinator_model: "coquick",
      manual_agent_selection: true,
      agent_preferences: { strategist: { enabled: true, model: "coreason" } },
    });
    const { events } = await runToEnd(me.client, session.id, "Plan a product launch", 60_000);
    const [run] = await runsOf(me.client, session.id);
    const stopped = run?.steps.filter((s) => s.error?.code === "stopped_at_limit") ?? [];
    expect(stopped.length).toBeGreaterThan(0);
    const first = stopped[0] as TRunStep;
    expect(first).toMatchObject({
      status: "stopped",
      limit: "balance",
      error: {
        code: "stopped_at_limit",
        message: "Stopped at your credit limit: your balance has no credits left for more.",
      },
    });
    expect(first.output.length).toBeGreaterThan(0);
    const done = eventsOf(events, "agent.done").find((e) => e.call_id === first.id);
    if (done) expect(done).toMatchObject({ status: "stopped", limit: "balance" });
    const balance = await balanceOf(t.app, me.user.id);
    expect(balance.balance).toBeGreaterThanOrEqual(0);
    const charged = run?.steps.reduce((sum, s) => sum + h(s.credits), 0) ?? 0;
    expect(h(0.4) - h(balance.balance)).toBe(charged);
    await expectSettled(t, me.user.id);
  });

  it("answers 402 before planning when the smallest run does not fit: nothing stored or charged", async () => {
    const me = await signUpWithCredits(t.app, 0.3);
    const session = await createSession(me.client);
    const error = await refusedRun(me.client, session.id);
    expect(error.code).toBe("insufficient_credits");
    expect(error.details).toMatchObject({ limit: "balance", available: 0.3 });
    expect(error.details.required).toBeGreaterThan(0.3);
    expect(error.message).toBe(
      `You have 0.30 credits available and the smallest step needs ${error.details.required.toFixed(2)}. Add credits to continue.`,
    );
    const detail = (await me.client.get(`/api/sessions/${session.id}`)).json();
    expect(detail.messages).toEqual([]);
    expect(detail.runs).toEqual([]);
    expect(await balanceOf(t.app, me.user.id)).toEqual({ balance: 0.3, held: 0, available: 0.3 });
  });

  it("40 parallel runs on a small pool with caps: no overdraw, no refusal while money remains", async () => {
    const crew = await team(5, 30);
    for (const member of crew.members) {
      const cap = await crew.owner.client.put(
        `/api/workspaces/${crew.id}/members/${member.user.id}/cap`,
        { monthly_cap_credits: 8 },
      );
      expect(cap.statusCode).toBe(200);
    }
    const sessions = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const member = crew.members[i % 5] as SignedUp;
        return createSession(member.client, { workspace_id: crew.id }).then((s) => ({
          member,
          session: s,
        }));
      }),
    );
    const started = await Promise.all(
      sessions.map(({ member, session }) =>
        member.client.post("/api/ai/chat", { session_id: session.id, message: "Plan a launch" }),
      ),
    );
    for (const response of started) {
      if (response.statusCode === 402) {
        // A refusal tells the truth: the limit it names could not pay the smallest run.
        const { details } = response.json().error;
        expect(details.available).toBeLessThan(details.required);
      } else {
        expect(response.statusCode).toBe(202);
      }
    }
    const ends = await Promise.all(
      started.map((response, i) => {
        if (response.statusCode !== 202) return null;
        const { member, session } = sessions[i] as (typeof sessions)[number];
        return waitForRunEnd(member.client, session.id, response.json().run_id, 120_000);
      }),
    );
    for (const events of ends) {
      const end = events?.at(-1);
      if (end?.type === "run.failed" && end.limit) {
        expect(end.available ?? 0).toBeLessThan(end.required ?? 0);
      }
    }
    expect(started.some((r) => r.statusCode === 202)).toBe(true);
    await expectSettled(t, crew.id);
    for (const member of crew.members) {
      const credits = (await member.client.get(`/api/workspaces/${crew.id}/credits`)).json();
      expect(credits.my_spent_this_month).toBeLessThanOrEqual(8);
    }
  }, 300_000);
});

describe("the personal monthly spending limit", () => {
  const t = appForBlock(HEAVY);

  it("is read and set in Settings, and refuses a run it cannot pay before planning", async () => {
    const me = await signUpWithCredits(t.app, 100);
    const month = new Date().toISOString().slice(0, 7);
    expect((await me.client.get("/api/users/spending-limit")).json()).toEqual({
      monthly_limit_credits: null,
      month,
      spent_this_month: 0,
      held: 0,
      remaining: null,
    });
    const bad = await me.client.put("/api/users/spending-limit", { monthly_limit_credits: -1 });
    expect(bad.statusCode).toBe(400);
    const set = await me.client.put("/api/users/spending-limit", { monthly_limit_credits: 0.3 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({
      monthly_limit_credits: 0.3,
      month,
      spent_this_month: 0,
      held: 0,
      remaining: 0.3,
    });
    const session = await createSession(me.client);
    const error = await refusedRun(me.client, session.id);
    expect(error.code).toBe("personal_limit_reached");
    expect(error.details).toMatchObject({ limit: "personal_limit", available: 0.3 });
    expect(error.message).toBe(
      `Your personal monthly spending limit leaves 0.30 credits and the smallest step needs ${error.details.required.toFixed(2)}. Raise your limit in Settings to continue.`,
    );
    expect(await balanceOf(t.app, me.user.id)).toEqual({ balance: 100, held: 0, available: 100 });

    // Lifted, the same message runs; what it spent counts toward the month.
    await me.client.put("/api/users/spending-limit", { monthly_limit_credits: null });
    await runToEnd(me.client, session.id, "Plan a product launch", 60_000);
    const after = (await me.client.get("/api/users/spending-limit")).json();
    const spent = 100 - (await balanceOf(t.app, me.user.id)).balance;
    expect(after.spent_this_month).toBeCloseTo(spent, 2);
    expect(after.spent_this_month).toBeGreaterThan(0);
  });

  it("stops a run at the limit, never spending past it", async () => {
    const me = await signUpWithCredits(t.app, 100);
    await me.client.put("/api/users/spending-limit", { monthly_limit_credits: 2.5 });
    const session = await createSession(me.client);
    await runToEnd(me.client, session.id, "Plan a product launch", 60_000);
    const [run] = await runsOf(me.client, session.id);
    for (const step of run?.steps.filter((s) => s.error?.code === "stopped_at_limit") ?? []) {
      expect(step.limit).toBe("personal_limit");
    }
    const limit = (await me.client.get("/api/users/spending-limit")).json();
    expect(limit.spent_this_month).toBeLessThanOrEqual(2.5);
    expect(limit.held).toBe(0);
    expect(100 - (await balanceOf(t.app, me.user.id)).balance).toBeCloseTo(
      limit.spent_this_month,
      2,
    );
  });
});

describe("simulated answers", () => {
  const t = appForBlock({ ...HEAVY, SIMULATOR_CHARGES: "0" });

  it("cost nothing, and each call keeps what it would have cost", async () => {
    const me = await signUpWithCredits(t.app, 5);
    const session = await createSession(me.client);
    const estimate = await me.client.get(
      `/api/sessions/${session.id}/cost-estimate?message_chars=21`,
    );
    expect(estimate.statusCode).toBe(200);
    expect(estimate.json()).toMatchObject({
      low: 0,
      high: 0,
      free: true,
      simulated: true,
      minimum: 0,
      wallet: { kind: "personal", workspace_id: null, available: 5 },
    });
    expect(estimate.json().would_be_high).toBeGreaterThan(0);

    const { events } = await runToEnd(me.client, session.id, "Plan a product launch", 60_000);
    expect(events.at(-1)).toMatchObject({ type: "run.completed", total_credits: 0 });
    for (const done of eventsOf(events, "agent.done")) {
      expect(done).toMatchObject({ simulated: true, credits: 0 });
      expect(done.would_be_credits).toBeGreaterThan(0);
    }
    const [run] = await runsOf(me.client, session.id);
    for (const step of run?.steps ?? []) {
      expect(step.credits).toBe(0);
      expect(step.would_be_credits).toBeGreaterThan(0);
    }
    expect(await balanceOf(t.app, me.user.id)).toEqual({ balance: 5, held: 0, available: 5 });
  });

  it("are marked on /api/v1, in a header and the fingerprint, streamed or not", async () => {
    const me = await signUp(t.app);
    const { token } = await createTestAccessToken(me.client);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const plain = await t.app.inject({
      method: "POST",
      url: "/api/v1/chat/completions",
      headers,
      payload: { model: "coquick", messages: [{ role: "user", content: "Hi" }] },
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["x-cohort-simulated"]).toBe("1");
    expect(plain.json().system_fingerprint).toBe("cohort-simulator");
    const streamed = await t.app.inject({
      method: "POST",
      url: "/api/v1/chat/completions",
      headers,
      payload: { model: "coquick", stream: true, messages: [{ role: "user", content: "Hi" }] },
    });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.headers["x-cohort-simulated"]).toBe("1");
    const chunks = streamed.body
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.system_fingerprint).toBe("cohort-simulator");
  });
});

describe("the cost estimate", () => {
  const t = appForBlock(HEAVY);

  it("gives a range for the run about to start, its wallet and its tightest limit", async () => {
    const me = await signUpWithCredits(t.app, 50);
    const session = await createSession(me.client, { budget_credits: 20 });
    const response = await me.client.get(
      `/api/sessions/${session.id}/cost-estimate?message_chars=400`,
    );
    expect(response.statusCode).toBe(200);
    const estimate = response.json();
    expect(estimate).toMatchObject({
      free: false,
      simulated: true,
      wallet: { kind: "personal", workspace_id: null, available: 50 },
      limit: { kind: "session_budget", available: 20 },
    });
    expect(estimate.low).toBeGreaterThan(0);
    expect(estimate.high).toBeGreaterThanOrEqual(estimate.low);
    expect(estimate.would_be_high).toBe(estimate.high);
    expect(estimate.minimum).toBeGreaterThan(0);
    expect(estimate.minimum).toBeLessThanOrEqual(estimate.low);
    expect(estimate.calls.map((c: { kind: string }) => c.kind)).toEqual([
      "plan",
      "agent",
      "agent",
      "agent",
      "critic",
      "synthesis",
      // The Designer may draw with generate_image, on by default for it (decision 068).
      "image",
    ]);
    const stranger = await signUp(t.app);
    expect(
      (await stranger.client.get(`/api/sessions/${session.id}/cost-estimate`)).statusCode,
    ).toBe(404);
  });

  it("counts a picture the Designer may draw in the high end, where the settings imply one", async () => {
    const me = await signUpWithCredits(t.app, 50);
    const estimateOf = async (body: Record<string, unknown>) => {
      const session = await createSession(me.client, body);
      const response = await me.client.get(
        `/api/sessions/${session.id}/cost-estimate?message_chars=400`,
      );
      expect(response.statusCode).toBe(200);
      return response.json() as {
        low: number;
        high: number;
        calls: { kind: string; model: string; low: number; high: number; count: number }[];
      };
    };
    const textOnly = { strategist: { enabled: true }, coder: { enabled: true } };
    const designer = { ...textOnly, designer: { enabled: true } };
    const without = await estimateOf({ manual_agent_selection: true, agent_preferences: textOnly });
    expect(without.calls.some((c) => c.kind === "image")).toBe(false);

    const drawing = await estimateOf({ manual_agent_selection: true, agent_preferences: designer });
    const image = drawing.calls.find((c) => c.kind === "image");
    // CoVision's price per image (the catalogue's 4.2 credits); a picture may not be drawn.
    expect(image).toMatchObject({ model: "covision", count: 1, low: 0, high: 4.2 });
    const agents = (e: typeof drawing) =>
      e.calls.filter((c) => c.kind !== "image").reduce((sum, c) => sum + h(c.high), 0);
    expect(h(drawing.high)).toBe(agents(drawing) + h(4.2));

    // The session takes generate_image away from the Designer: no picture is expected.
    const noTool = await estimateOf({
      manual_agent_selection: true,
      agent_preferences: designer,
      tools: { roles: { designer: { builtins: ["read_url"], mcp_servers: [] } } },
    });
    expect(noTool.calls.some((c) => c.kind === "image")).toBe(false);

    // A Designer on CoVision draws in its own call, already priced per image there.
    const onCovision = await estimateOf({
      manual_agent_selection: true,
      agent_preferences: { ...textOnly, designer: { enabled: true, model: "covision" } },
    });
    expect(onCovision.calls.some((c) => c.kind === "image")).toBe(false);
    const designerCall = onCovision.calls.find((c) => c.model === "covision");
    expect(designerCall?.low).toBeGreaterThanOrEqual(4.2);
  });
});
