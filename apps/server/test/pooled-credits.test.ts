import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  hundredthsOf as h,
  SERVER_EVENTS,
  type TCreditsChanged,
  type TWorkspaceUsage,
} from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreditsDeps, creditsDeps } from "../src/modules/credits/credits-deps";
import { getBalance } from "../src/modules/credits/get-balance";
import type { Hold } from "../src/modules/credits/hold-row";
import { sumLedger } from "../src/modules/credits/list-ledger";
import type { Payer } from "../src/modules/credits/payer";
import { releaseHold } from "../src/modules/credits/release-hold";
import { reserveCredits } from "../src/modules/credits/reserve-credits";
import { settleHold } from "../src/modules/credits/settle-hold";
import { AppError } from "../src/platform/errors";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, listenLocally, type TestApp, testDbKind } from "./support/app";
import type { TestClient } from "./support/client";
import { createSession, runToEnd } from "./support/runs";
import { balanceOf, setCredits } from "./support/runs-credits";
import { createCrew } from "./support/workspaces";

let t: TestApp;
let deps: CreditsDeps;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  await t.app.ready();
  deps = creditsDeps(t.app);
});
afterAll(() => t.close());

const setCap = (client: TestClient, teamId: string, userId: string, cap: number | null) =>
  client.put(`/api/workspaces/${teamId}/members/${userId}/cap`, { monthly_cap_credits: cap });

/** balance = Σ ledger, held = Σ open holds, nothing negative. */
async function expectConsistent(accountId: string) {
  const balance = await getBalance(t.db, accountId);
  expect(balance.balance).toBeCloseTo(await sumLedger(t.db, accountId), 10);
  expect(balance.available).toBeGreaterThanOrEqual(0);
  const { rows } = await t.db.query<{ open: number }>(
    "SELECT COALESCE(sum(amount), 0)::bigint AS open FROM credit_holds WHERE user_id = $1 AND status = 'open'",
    [accountId],
  );
  expect(balance.held).toBeCloseTo((rows[0]?.open ?? 0) / 100, 10);
  return balance;
}

/** Each payer's share of 200 parallel one-credit holds, round robin. */
async function holdInParallel(payers: readonly Payer[], tag: string) {
  const outcomes = await Promise.allSettled(
    Array.from({ length: 200 }, (_, i) => {
      const payer = payers[i % payers.length] as Payer;
      return reserveCredits(deps, payer, h(1), `${tag}-${i}`);
    }),
  );
  const held = new Map<string, Hold[]>();
  const refused = new Map<string, number>();
  for (const outcome of outcomes) {
    if (outcome.status === "fulfilled") {
      const member = outcome.value.memberId as string;
      held.set(member, [...(held.get(member) ?? []), outcome.value]);
    } else {
      const error = outcome.reason as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect(error.statusCode).toBe(402);
      refused.set(error.code, (refused.get(error.code) ?? 0) + 1);
    }
  }
  return { held, refused };
}

describe(`200 parallel holds on one pool (${testDbKind})`, () => {
  it("never overdraws a member's cap, and settling moves held to spent", async () => {
    const crew = await createCrew(t.app, 4);
    await setCredits(t.app, crew.id, 1000);
    const [a, b, c, d] = crew.members.map((m) => m.user.id) as [string, string, string, string];
    const admin = crew.owner.client;
    expect((await setCap(admin, crew.id, a, 20)).json()).toEqual({
      user_id: a,
      monthly_cap_credits: 20,
    });
    expect((await setCap(admin, crew.id, b, 35.5)).statusCode).toBe(200);
    expect((await setCap(admin, crew.id, c, 100)).statusCode).toBe(200);
    expect((await setCap(admin, crew.id, c, null)).json().monthly_cap_credits).toBeNull();
    const payers = [crew.owner.user.id, a, b, c, d].map((memberId) => ({
      accountId: crew.id,
      memberId,
    }));

    const { held, refused } = await holdInParallel(payers, `caps-${crew.id}`);
    // 40 tries each: a stops at 20, b at 35 (35.5 leaves less than one credit).
    expect(held.get(a)).toHaveLength(20);
    expect(held.get(b)).toHaveLength(35);
    for (const free of [crew.owner.user.id, c, d]) expect(held.get(free)).toHaveLength(40);
    expect(Object.fromEntries(refused)).toEqual({ member_cap_reached: 25 });
    expect(await expectConsistent(crew.id)).toEqual({
      balance: 1000,
      held: 175,
      available: 825,
    });

    const before = await crew.members[0]?.client.get(`/api/workspaces/${crew.id}/credits`);
    expect(before?.json()).toEqual({
      balance: 1000,
      available: 825,
      my_monthly_cap: 20,
      my_spent_this_month: 0,
      my_held: 20,
    });
    const blocked = await reserveCredits(deps, payers[1] as Payer, h(0.01), `one-more-${a}`).catch(
      (e: unknown) => e as AppError,
    );
    expect(blocked).toBeInstanceOf(AppError);
    expect((blocked as AppError).code).toBe("member_cap_reached");
    expect((blocked as AppError).message).toBe(
      "Your monthly cap in this workspace leaves 0.00 credits and the smallest step needs 0.01. Ask the workspace owner to raise your cap.",
    );
    expect((blocked as AppError).details).toEqual({
      limit: "member_cap",
      available: 0,
      required: 0.01,
      workspace_id: crew.id,
    });

    // Every hold settled (some twice, some for more than held) or released, in parallel.
    const all = [...held.values()].flat();
    await Promise.all([
      ...all.map((hold, i) =>
        i % 3 === 2 ? releaseHold(deps, hold.id) : settleHold(deps, hold.id, h(i % 2 ? 0.5 : 2)),
      ),
      ...all.slice(0, 60).map((hold) => settleHold(deps, hold.id, h(0.25))),
    ]);
    const { rows } = await t.db.query<{ member_id: string; open: number; charged: number }>(
      `SELECT member_id, count(*) FILTER (WHERE status = 'open')::int AS open,
         COALESCE(sum(charged), 0)::bigint AS charged
       FROM credit_holds WHERE user_id = $1 GROUP BY member_id`,
      [crew.id],
    );
    expect(rows.every((row) => row.open === 0)).toBe(true);
    const charged = new Map(rows.map((row) => [row.member_id, row.charged / 100]));
    const total = [...charged.values()].reduce((sum, x) => sum + x, 0);
    const after = await expectConsistent(crew.id);
    expect(after.held).toBe(0);
    expect(after.balance).toBeCloseTo(1000 - total, 10);

    const mine = await crew.members[0]?.client.get(`/api/workspaces/${crew.id}/credits`);
    expect(mine?.json()).toMatchObject({ my_held: 0, my_spent_this_month: charged.get(a) });
    const usage = (await admin.get(`/api/workspaces/${crew.id}/usage`)).json() as TWorkspaceUsage;
    expect(usage.month).toBe(new Date().toISOString().slice(0, 7));
    const ofA = usage.members.find((m) => m.user_id === a);
    expect(ofA).toMatchObject({
      email: crew.members[0]?.email,
      role: "member",
      held_credits: 0,
      monthly_cap_credits: 20,
    });
    expect(ofA?.spent_credits).toBeCloseTo(charged.get(a) ?? -1, 10);
    expect(usage.members.map((m) => m.role)).toEqual([
      "owner",
      "member",
      "member",
      "member",
      "member",
    ]);
    const calls = usage.members.reduce((sum, m) => sum + m.calls, 0);
    const { rows: settled } = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM credit_holds WHERE user_id = $1 AND status = 'settled'",
      [crew.id],
    );
    expect(calls).toBe(settled[0]?.n);
  });

  it("never overdraws the pool either: exactly what it covers, every cap kept", async () => {
    const crew = await createCrew(t.app, 4);
    await setCredits(t.app, crew.id, 150);
    const [a, b] = crew.members.map((m) => m.user.id) as [string, string];
    expect((await setCap(crew.owner.client, crew.id, a, 30)).statusCode).toBe(200);
    expect((await setCap(crew.owner.client, crew.id, b, 12.5)).statusCode).toBe(200);
    const payers = [crew.owner.user.id, ...crew.members.map((m) => m.user.id)].map((memberId) => ({
      accountId: crew.id,
      memberId,
    }));
    // 40 tries each; the caps allow 40 + 30 + 12 + 40 + 40 = 162 > 150.
    const { held, refused } = await holdInParallel(payers, `pool-${crew.id}`);
    const count = (id: string) => held.get(id)?.length ?? 0;
    expect([...held.values()].flat()).toHaveLength(150);
    expect(count(a)).toBeLessThanOrEqual(30);
    expect(count(b)).toBeLessThanOrEqual(12);
    expect(
      (refused.get("insufficient_credits") ?? 0) + (refused.get("member_cap_reached") ?? 0),
    ).toBe(50);
    expect(await expectConsistent(crew.id)).toEqual({ balance: 150, held: 150, available: 0 });
    await Promise.all([...held.values()].flat().map((hold) => settleHold(deps, hold.id, h(1))));
    expect(await expectConsistent(crew.id)).toEqual({ balance: 0, held: 0, available: 0 });
  });
});

describe("runs in a team workspace", () => {
  it("spend from the pool, not the member's own credits, and count against the member", async () => {
    const crew = await createCrew(t.app, 1);
    const member = crew.members[0] as SignedUp;
    await setCredits(t.app, crew.id, 300);
    await setCredits(t.app, member.user.id, 50);
    const session = await createSession(member.client, { workspace_id: crew.id });
    const { events } = await runToEnd(member.client, session.id, "Plan a small launch party");
    expect(events.at(-1)?.type).toBe("run.completed");

    expect(await balanceOf(t.app, member.user.id)).toEqual({ balance: 50, held: 0, available: 50 });
    const pool = await expectConsistent(crew.id);
    expect(pool.held).toBe(0);
    expect(pool.balance).toBeLessThan(300);
    const spent = Math.round((300 - pool.balance) * 100) / 100;
    const usage = (
      await crew.owner.client.get(`/api/workspaces/${crew.id}/usage`)
    ).json() as TWorkspaceUsage;
    const mine = usage.members.find((m) => m.user_id === member.user.id);
    expect(mine?.spent_credits).toBeCloseTo(spent, 10);
    expect(mine?.calls).toBeGreaterThan(0);
    expect(usage.members.find((m) => m.user_id === crew.owner.user.id)?.spent_credits).toBe(0);
  });

  it("answers 402 member_cap_reached when the member's cap is used up", async () => {
    const crew = await createCrew(t.app, 1);
    const member = crew.members[0] as SignedUp;
    await setCredits(t.app, crew.id, 300);
    await setCredits(t.app, member.user.id, 300);
    expect((await setCap(crew.owner.client, crew.id, member.user.id, 0)).statusCode).toBe(200);
    const session = await createSession(member.client, { workspace_id: crew.id });
    const refused = await member.client.post("/api/ai/chat", {
      session_id: session.id,
      message: "Plan a small launch party",
    });
    expect(refused.statusCode).toBe(402);
    const error = refused.json().error;
    expect(error).toMatchObject({
      code: "member_cap_reached",
      details: { limit: "member_cap", available: 0, workspace_id: crew.id },
    });
    expect(error.message).toBe(
      `Your monthly cap in this workspace leaves 0.00 credits and the smallest step needs ${error.details.required.toFixed(2)}. Ask the workspace owner to raise your cap.`,
    );
    expect(error.details.required).toBeGreaterThan(0);
    expect(await balanceOf(t.app, crew.id)).toEqual({ balance: 300, held: 0, available: 300 });
  });
});

describe("buying for the pool and seeing its use", () => {
  const ORIGIN = "http://localhost:3000";
  const pay = (client: TestClient, url: string) =>
    client.request("POST", `${url}/pay`, "", {
      csrf: false,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    });

  it("lets owners and admins buy packs for the pool, with an audit line", async () => {
    const crew = await createCrew(t.app, 1);
    const member = crew.members[0] as SignedUp;
    const outsider = await signUp(t.app);
    const body = { packageId: "pack_100", workspace_id: crew.id };
    const denied = await member.client.post("/api/billing/purchase-credits", body);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe("workspace_role_too_low");
    expect((await outsider.client.post("/api/billing/purchase-credits", body)).statusCode).toBe(
      404,
    );
    const subscription = await crew.owner.client.post("/api/billing/create-checkout-session", {
      tier: "pro",
      workspace_id: crew.id,
    });
    expect(subscription.statusCode).toBe(400);
    expect(subscription.json().error.message).toBe(
      "Subscriptions belong to a person. Buy credit packs for a team workspace instead.",
    );

    await t.db.query(
      "UPDATE workspace_members SET role = 'admin' WHERE workspace_id = $1 AND user_id = $2",
      [crew.id, member.user.id],
    );
    const bought = await member.client.post("/api/billing/purchase-credits", body);
    expect(bought.statusCode).toBe(200);
    const paid = await pay(member.client, bought.json().checkout_url);
    expect(paid.statusCode).toBe(303);
    expect(await balanceOf(t.app, crew.id)).toEqual({ balance: 100, held: 0, available: 100 });
    expect(await balanceOf(t.app, member.user.id)).toEqual({ balance: 0, held: 0, available: 0 });
    const { rows } = await t.db.query<{ actor_id: string; action: string; details: object }>(
      "SELECT actor_id, action, details FROM workspace_audit_log WHERE workspace_id = $1 AND action = 'credits.purchased'",
      [crew.id],
    );
    expect(rows).toEqual([
      {
        actor_id: member.user.id,
        action: "credits.purchased",
        details: { credits: 100, package_id: "pack_100", checkout_id: bought.json().sessionId },
      },
    ]);
    // Paying again grants nothing twice.
    await pay(member.client, bought.json().checkout_url);
    expect((await balanceOf(t.app, crew.id)).balance).toBe(100);
  });

  it("shows usage and caps to admins only, and audits cap changes", async () => {
    const crew = await createCrew(t.app, 1);
    const member = crew.members[0] as SignedUp;
    const outsider = await signUp(t.app);
    const usageUrl = `/api/workspaces/${crew.id}/usage`;
    expect((await member.client.get(usageUrl)).statusCode).toBe(403);
    expect((await outsider.client.get(usageUrl)).statusCode).toBe(404);
    expect((await crew.owner.client.get(`${usageUrl}?month=2026-13`)).statusCode).toBe(400);
    const past = (await crew.owner.client.get(`${usageUrl}?month=2020-01`)).json();
    expect(past).toEqual({
      month: "2020-01",
      members: [crew.owner, member].map((m, i) => ({
        user_id: m.user.id,
        email: m.email,
        display_name: "Ada Lovelace",
        role: i === 0 ? "owner" : "member",
        spent_credits: 0,
        held_credits: 0,
        monthly_cap_credits: null,
        calls: 0,
      })),
    });
    expect((await setCap(member.client, crew.id, member.user.id, 5)).statusCode).toBe(403);
    expect((await setCap(crew.owner.client, crew.id, outsider.user.id, 5)).statusCode).toBe(404);
    expect((await setCap(crew.owner.client, crew.id, member.user.id, 5)).statusCode).toBe(200);
    expect((await setCap(crew.owner.client, crew.id, member.user.id, 7.25)).statusCode).toBe(200);
    const personal = await crew.owner.client.get(`/api/workspaces/${crew.owner.user.id}/usage`);
    expect(personal.statusCode).toBe(400);
    const { rows } = await t.db.query<{ actor_id: string; target: string; details: object }>(
      "SELECT actor_id, target, details FROM workspace_audit_log WHERE workspace_id = $1 AND action = 'member.cap_changed' ORDER BY id",
      [crew.id],
    );
    expect(rows).toEqual([
      { actor_id: crew.owner.user.id, target: member.user.id, details: { from: null, to: 5 } },
      { actor_id: crew.owner.user.id, target: member.user.id, details: { from: 5, to: 7.25 } },
    ]);
    expect((await member.client.get(`/api/workspaces/${crew.id}/credits`)).json()).toEqual({
      balance: 0,
      available: 0,
      my_monthly_cap: 7.25,
      my_spent_this_month: 0,
      my_held: 0,
    });
  });

  it("tells every member's sockets about the pool's changes, marked with the workspace", async () => {
    const crew = await createCrew(t.app, 1);
    const member = crew.members[0] as SignedUp;
    const outsider = await signUp(t.app);
    const url = await listenLocally(t.app);
    const sockets: Socket[] = [];
    const open = (token: string) => {
      const socket = connect(url, {
        transports: ["polling"],
        reconnection: false,
        auth: { token },
      });
      sockets.push(socket);
      const received: TCreditsChanged[] = [];
      socket.on(SERVER_EVENTS.creditsChanged, (event: TCreditsChanged) => received.push(event));
      return new Promise<TCreditsChanged[]>((resolve, reject) => {
        socket.on(SERVER_EVENTS.ready, () => resolve(received));
        socket.on("connect_error", reject);
      });
    };
    try {
      const owner = await open(crew.owner.token);
      const theirs = await open(member.token);
      const leaked = await open(outsider.token);
      await setCredits(t.app, crew.id, 10);
      const payer = { accountId: crew.id, memberId: member.user.id };
      const hold = await reserveCredits(deps, payer, h(3), `sock-${randomUUID()}`);
      await settleHold(deps, hold.id, h(1.5));
      const deadline = Date.now() + 5_000;
      while ((owner.length < 3 || theirs.length < 3) && Date.now() < deadline) await sleep(20);
      const expected = [
        {
          balance: 10,
          available: 10,
          delta: 10,
          reason: "admin_adjustment",
          workspace_id: crew.id,
        },
        { balance: 10, available: 7, delta: 0, reason: "hold", workspace_id: crew.id },
        { balance: 8.5, available: 8.5, delta: -1.5, reason: "usage", workspace_id: crew.id },
      ];
      expect(owner).toEqual(expected);
      expect(theirs).toEqual(expected);
      expect(leaked).toEqual([]);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });
});
