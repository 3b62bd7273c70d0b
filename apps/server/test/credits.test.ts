import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { hundredthsOf as h, SERVER_EVENTS, type TCreditsChanged } from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adjustCredits } from "../src/modules/credits/adjust-credits";
import { type CreditsDeps, creditsDeps } from "../src/modules/credits/credits-deps";
import { getBalance } from "../src/modules/credits/get-balance";
import { grantCredits } from "../src/modules/credits/grant-credits";
import { sumLedger } from "../src/modules/credits/list-ledger";
import { personalPayer } from "../src/modules/credits/payer";
import { recordUsage } from "../src/modules/credits/record-usage";
import { releaseHold } from "../src/modules/credits/release-hold";
import { reserveCredits } from "../src/modules/credits/reserve-credits";
import { settleHold, settleHoldWithUsage } from "../src/modules/credits/settle-hold";
import { sweepExpiredHolds } from "../src/modules/credits/sweep-expired-holds";
import { AppError } from "../src/platform/errors";
import { adminClient, signUp } from "./support/accounts";
import { createTestApp, listenLocally, type TestApp, testDbKind } from "./support/app";
import { createSession, runToEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";

const ADMIN_EMAIL = "credits-admin@cohort.example";
const ADMIN_PASSWORD = "a credits admin passphrase";

let t: TestApp;
let deps: CreditsDeps;

beforeAll(async () => {
  t = await createTestApp({
    SIGNUP_CREDITS: "0",
    CREDITS_SWEEP_INTERVAL_SECONDS: "0",
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
  });
  await t.app.ready();
  deps = creditsDeps(t.app);
});
afterAll(() => t.close());

async function newUser(credits = 0) {
  const signed = await signUp(t.app);
  if (credits > 0) await fund(signed.user.id, credits);
  return signed;
}

function fund(userId: string, credits: number) {
  return grantCredits(deps, {
    userId,
    credits,
    reason: "admin_adjustment",
    reference: randomUUID(),
  });
}

/** The invariants that must hold after anything: balance = Σ ledger, nothing negative. */
async function expectConsistent(userId: string) {
  const balance = await getBalance(t.db, userId);
  expect(balance.balance).toBeCloseTo(await sumLedger(t.db, userId), 10);
  expect(balance.balance).toBeGreaterThanOrEqual(0);
  expect(balance.available).toBeGreaterThanOrEqual(0);
  const { rows } = await t.db.query<{ open: number }>(
    "SELECT COALESCE(sum(amount), 0)::bigint AS open FROM credit_holds WHERE user_id = $1 AND status = 'open'",
    [userId],
  );
  expect(balance.held).toBeCloseTo((rows[0]?.open ?? 0) / 100, 10);
  return balance;
}

async function expectInsufficient(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("insufficient_credits");
  expect((error as AppError).statusCode).toBe(402);
}

describe(`ledger and holds (${testDbKind})`, () => {
  it("grants once per (reason, reference), however often it is asked", async () => {
    const { user } = await newUser();
    const entry = {
      userId: user.id,
      credits: 12.34,
      reason: "credit_purchase" as const,
      reference: `cs_${randomUUID()}`,
    };
    const results = await Promise.all(Array.from({ length: 25 }, () => grantCredits(deps, entry)));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect((await expectConsistent(user.id)).balance).toBe(12.34);
  });

  it("holds, settles the actual cost (never more than held) and releases the rest", async () => {
    const { user } = await newUser(10);
    const hold = await reserveCredits(deps, personalPayer(user.id), h(4), `call-${randomUUID()}`);
    expect(await getBalance(t.db, user.id)).toEqual({ balance: 10, held: 4, available: 6 });
    const settled = await settleHold(deps, hold.id, h(1.37));
    expect(settled).toMatchObject({ applied: true, charged: 137 });
    expect(await expectConsistent(user.id)).toEqual({ balance: 8.63, held: 0, available: 8.63 });

    // Over the hold: charged the held amount, not a credit more.
    const big = await reserveCredits(deps, personalPayer(user.id), h(2), `call-${randomUUID()}`);
    expect((await settleHold(deps, big.id, h(50))).charged).toBe(200);
    expect((await expectConsistent(user.id)).balance).toBe(6.63);
  });

  it("makes every operation idempotent", async () => {
    const { user } = await newUser(5);
    const ref = `call-${randomUUID()}`;
    const first = await reserveCredits(deps, personalPayer(user.id), h(3), ref);
    const again = await reserveCredits(deps, personalPayer(user.id), h(3), ref);
    expect(again.id).toBe(first.id);
    expect((await getBalance(t.db, user.id)).held).toBe(3);
    await settleHold(deps, first.id, h(1));
    expect((await settleHold(deps, first.id, h(1))).applied).toBe(false);
    expect(await releaseHold(deps, first.id)).toBe(false);
    expect(await expectConsistent(user.id)).toEqual({ balance: 4, held: 0, available: 4 });

    const released = await reserveCredits(
      deps,
      personalPayer(user.id),
      h(2),
      `call-${randomUUID()}`,
    );
    expect(await releaseHold(deps, released.id)).toBe(true);
    expect(await releaseHold(deps, released.id)).toBe(false);
    expect((await settleHold(deps, released.id, h(2))).charged).toBe(0);
    expect(await expectConsistent(user.id)).toEqual({ balance: 4, held: 0, available: 4 });
  });

  it("refuses a hold the available balance cannot cover with 402 insufficient_credits", async () => {
    const { user } = await newUser(3);
    await reserveCredits(deps, personalPayer(user.id), h(2), `call-${randomUUID()}`);
    await expectInsufficient(
      reserveCredits(deps, personalPayer(user.id), h(1.01), `call-${randomUUID()}`),
    );
    const { user: broke } = await newUser();
    await expectInsufficient(
      reserveCredits(deps, personalPayer(broke.id), h(0.01), `call-${randomUUID()}`),
    );
    // A debit may not take credits that are on hold either.
    await expectInsufficient(adjustCredits(deps, { userId: user.id, credits: -1.5, note: "x" }));
    expect(await expectConsistent(user.id)).toEqual({ balance: 3, held: 2, available: 1 });
  });

  it("keeps the ledger append-only", async () => {
    const { user } = await newUser(1);
    await expect(
      t.db.query("UPDATE credit_ledger SET delta = 1000 WHERE user_id = $1", [user.id]),
    ).rejects.toThrow(/append-only/);
  });

  it("records usage with its settlement, once", async () => {
    const { user, client: userClient } = await newUser(20);
    const hold = await reserveCredits(
      deps,
      personalPayer(user.id),
      h(5),
      `run-1:call-${randomUUID()}`,
    );
    const usage = { model: "coreason", provider: "openai", inputTokens: 1200, outputTokens: 300 };
    await settleHoldWithUsage(deps, hold.id, h(2.5), usage);
    await settleHoldWithUsage(deps, hold.id, h(2.5), usage);
    await recordUsage(t.db, {
      userId: user.id,
      reference: `byok-${randomUUID()}`,
      model: "gpt-4.1",
      provider: "openai",
      inputTokens: 100,
      outputTokens: 50,
      credits: 0,
      costUsd: 0.004,
    });
    expect((await userClient.get("/api/billing/usage-stats")).json()).toEqual({
      total_requests: 2,
      total_tokens: 1650,
      total_cost: 0.029,
      total_credits_used: 2.5,
    });
    const { client } = await signUp(t.app);
    expect((await client.get("/api/billing/usage-stats")).json()).toEqual({
      total_requests: 0,
      total_tokens: 0,
      total_cost: 0,
      total_credits_used: 0,
    });
  });
});

describe(`concurrency (${testDbKind})`, () => {
  it("200 parallel reserves against a balance that covers 150: exactly 150 holds", async () => {
    const { user } = await newUser(150);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        reserveCredits(deps, personalPayer(user.id), h(1), `p-${user.id}-${i}`),
      ),
    );
    const held = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter(
      (o) => o.status === "rejected" && (o.reason as AppError).code === "insufficient_credits",
    );
    expect(held).toHaveLength(150);
    expect(refused).toHaveLength(50);
    expect(await expectConsistent(user.id)).toEqual({ balance: 150, held: 150, available: 0 });

    // 200 parallel settles: every hold twice, at 0.37..1.00 (then more than held).
    const holds = held.map((o) => (o as PromiseFulfilledResult<{ id: string }>).value);
    const cost = (i: number) => (i % 2 === 0 ? 0.37 + (i % 7) * 0.09 : 1.5);
    const settles = await Promise.all(
      [...holds, ...holds.slice(0, 50)].map((hold, i) =>
        settleHold(deps, hold.id, h(cost(i % 150))),
      ),
    );
    const charged = settles.reduce((sum, s) => sum + s.charged, 0);
    const expected = holds.reduce((sum, _h, i) => sum + Math.round(Math.min(cost(i), 1) * 100), 0);
    expect(settles.filter((s) => s.applied)).toHaveLength(150);
    expect(charged).toBe(expected);
    const after = await expectConsistent(user.id);
    expect(Math.round(after.balance * 100)).toBe(15_000 - expected);
    expect(after.held).toBe(0);
  });

  it("50 parallel reserves with one reference: one hold, held once, the same hold for all", async () => {
    const { user } = await newUser(10);
    const reference = `retry-${randomUUID()}`;
    const holds = await Promise.all(
      Array.from({ length: 50 }, () =>
        reserveCredits(deps, personalPayer(user.id), h(4), reference),
      ),
    );
    expect(new Set(holds.map((hold) => hold.id)).size).toBe(1);
    expect(await expectConsistent(user.id)).toEqual({ balance: 10, held: 4, available: 6 });
    // Another user's reserve with the same reference is a conflict, and holds nothing.
    const { user: other } = await newUser(10);
    const error = await reserveCredits(deps, personalPayer(other.id), h(1), reference).catch(
      (e: unknown) => e,
    );
    expect((error as AppError).statusCode).toBe(409);
    expect(await expectConsistent(other.id)).toEqual({ balance: 10, held: 0, available: 10 });
    // Releasing a hold that does not exist is a 404, not a silent success.
    const missing = await releaseHold(deps, randomUUID()).catch((e: unknown) => e);
    expect((missing as AppError).statusCode).toBe(404);
  });

  it("200 parallel reserve→settle calls: not one credit too many or too few", async () => {
    const { user } = await newUser(60);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, async (_, i): Promise<number> => {
        const hold = await reserveCredits(
          deps,
          personalPayer(user.id),
          h(1.25),
          `rs-${user.id}-${i}`,
        );
        // Some calls fail and release; the others settle at their actual cost.
        if (i % 10 === 0) {
          await releaseHold(deps, hold.id);
          return 0;
        }
        return (await settleHold(deps, hold.id, h(0.5 + (i % 5) * 0.2))).charged;
      }),
    );
    const charged = results
      .filter((r): r is PromiseFulfilledResult<number> => r.status === "fulfilled")
      .reduce((sum, r) => sum + r.value, 0);
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(((r as PromiseRejectedResult).reason as AppError).code).toBe("insufficient_credits");
    }
    const after = await expectConsistent(user.id);
    expect(Math.round(after.balance * 100)).toBe(6000 - charged);
    expect(after.held).toBe(0);
    const { rows } = await t.db.query<{ n: number; total: number }>(
      "SELECT count(*)::int AS n, COALESCE(-sum(delta), 0)::bigint AS total FROM credit_ledger WHERE user_id = $1 AND reason = 'usage'",
      [user.id],
    );
    expect(rows[0]?.total).toBe(charged);
  });

  it("parallel grants and debits of one user stay exact", async () => {
    const { user } = await newUser(10);
    await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0
          ? fund(user.id, 0.25)
          : adjustCredits(deps, { userId: user.id, credits: -0.5, note: "t" }),
      ),
    );
    await expectConsistent(user.id);
  });
});

describe("the hold sweeper", () => {
  it("releases holds left open past HOLD_TTL_MINUTES, and only those", async () => {
    const short = await createTestApp({
      HOLD_TTL_MINUTES: "0.001",
      CREDITS_SWEEP_INTERVAL_SECONDS: "0",
    });
    try {
      await short.app.ready();
      const shortDeps = creditsDeps(short.app);
      const { user } = await signUpWithCredits(short.app, 10);
      const stale = await reserveCredits(
        shortDeps,
        personalPayer(user.id),
        h(4),
        `stale-${randomUUID()}`,
      );
      await sleep(150);
      const fresh = await reserveCredits(
        { ...shortDeps, holdTtlMs: 60_000 },
        personalPayer(user.id),
        h(1),
        `fresh-${randomUUID()}`,
      );
      expect(await sweepExpiredHolds(shortDeps)).toBe(1);
      expect(await sweepExpiredHolds(shortDeps)).toBe(0);
      expect(await getBalance(short.db, user.id)).toEqual({ balance: 10, held: 1, available: 9 });
      const { rows } = await short.db.query<{ status: string }>(
        "SELECT status FROM credit_holds WHERE id = $1",
        [stale.id],
      );
      expect(rows[0]?.status).toBe("expired");
      // The late settlement of an expired call is charged, within what is available.
      expect((await settleHold(shortDeps, stale.id, h(3))).charged).toBe(300);
      expect((await settleHold(shortDeps, fresh.id, h(1))).charged).toBe(100);
      expect(await getBalance(short.db, user.id)).toEqual({ balance: 6, held: 0, available: 6 });
    } finally {
      await short.close();
    }
  });

  it("runs on its own timer, started with the app", async () => {
    const timed = await createTestApp({
      HOLD_TTL_MINUTES: "0.0005",
      CREDITS_SWEEP_INTERVAL_SECONDS: "0.05",
    });
    try {
      await timed.app.ready();
      const { user } = await signUpWithCredits(timed.app, 5);
      await reserveCredits(
        creditsDeps(timed.app),
        personalPayer(user.id),
        h(5),
        `t-${randomUUID()}`,
      );
      const deadline = Date.now() + 5_000;
      while ((await getBalance(timed.db, user.id)).available < 5 && Date.now() < deadline) {
        await sleep(25);
      }
      expect(await getBalance(timed.db, user.id)).toEqual({ balance: 5, held: 0, available: 5 });
    } finally {
      await timed.close();
    }
  });
});

describe("signup grant", () => {
  it("gives a new account SIGNUP_CREDITS once its address is verified, once, on the ledger", async () => {
    const app = await createTestApp({ SIGNUP_CREDITS: "7" });
    try {
      await app.app.ready();
      const { user, client } = await signUp(app.app, { verified: true });
      expect(user.credits_remaining).toBe(7);
      const ledger = (await client.get("/api/billing/ledger")).json();
      expect(ledger.entries).toEqual([
        expect.objectContaining({ delta: 7, balance_after: 7, reason: "signup_grant" }),
      ]);
      expect((await client.get("/api/users/profile")).json().user.credits_remaining).toBe(7);
    } finally {
      await app.close();
    }
  });
});

describe("HTTP: ledger, usage and admin", () => {
  it("pages the ledger newest first and reports usage per day and model", async () => {
    const { user, client } = await newUser(30);
    for (let i = 0; i < 3; i++) {
      const hold = await reserveCredits(deps, personalPayer(user.id), h(2), `h-${randomUUID()}`);
      await settleHoldWithUsage(deps, hold.id, h(1 + i), {
        model: i === 2 ? "codepth" : "coreason",
        provider: "anthropic",
        inputTokens: 1000,
        outputTokens: 100 * (i + 1),
      });
    }
    const page1 = (await client.get("/api/billing/ledger?page=1&pageSize=2")).json();
    expect(page1.total).toBe(4);
    expect(page1.entries.map((e: { delta: number }) => e.delta)).toEqual([-2, -2]);
    expect(page1.entries[0].balance_after).toBe(25);
    const page2 = (await client.get("/api/billing/ledger?page=2&pageSize=2")).json();
    expect(page2.entries.map((e: { reason: string }) => e.reason)).toEqual([
      "usage",
      "admin_adjustment",
    ]);

    expect((await client.get("/api/billing/usage-stats")).json()).toEqual({
      total_requests: 3,
      total_tokens: 3600,
      total_cost: 0.05,
      total_credits_used: 5,
    });
    const usage = (await client.get("/api/users/usage?days=7")).json();
    expect(usage.days).toHaveLength(7);
    expect(usage.days[6]).toMatchObject({ requests: 3, credits: 5 });
    expect(usage.days[0]).toMatchObject({ requests: 0, credits: 0 });
    expect(usage.models).toEqual([
      expect.objectContaining({ model: "coreason", requests: 2, credits: 3 }),
      expect.objectContaining({ model: "codepth", requests: 1, credits: 2 }),
    ]);
  });

  it("lets an admin adjust credits (idempotently) and grant a tier", async () => {
    const admin = await adminClient(t.app, ADMIN_EMAIL, ADMIN_PASSWORD);
    const { user, client } = await newUser();
    const body = { delta: 12.5, reason: "Goodwill", idempotencyKey: `adj-${randomUUID()}` };
    const first = await admin.post(`/api/admin/users/${user.id}/credits`, body);
    expect(first.json()).toEqual({ balance: 12.5, available: 12.5, applied: true });
    const again = await admin.post(`/api/admin/users/${user.id}/credits`, body);
    expect(again.json()).toEqual({ balance: 12.5, available: 12.5, applied: false });
    const deduct = await admin.post(`/api/admin/users/${user.id}/credits`, {
      delta: -20,
      reason: "Too much",
    });
    expect(deduct.statusCode).toBe(402);
    expect(deduct.json().error.code).toBe("insufficient_credits");
    const ledger = (await client.get("/api/billing/ledger")).json();
    expect(ledger.entries).toEqual([
      expect.objectContaining({ delta: 12.5, reason: "admin_adjustment", description: "Goodwill" }),
    ]);

    const tier = await admin.put(`/api/admin/users/${user.id}/tier`, { tier: "pro" });
    expect(tier.json().user).toMatchObject({ subscription_tier: "pro", cochat_access: true });
    expect((await client.get("/api/users/profile")).json().user).toMatchObject({
      subscription_tier: "pro",
      cochat_access: true,
      credits_remaining: 12.5,
    });
    expect((await client.post(`/api/admin/users/${user.id}/credits`, body)).statusCode).toBe(403);
    const missing = await admin.put(`/api/admin/users/${randomUUID()}/tier`, { tier: "pro" });
    expect(missing.statusCode).toBe(404);
  });
});

describe("credits.changed", () => {
  it("reaches the user's sockets (polling) after each change, and no one else's", async () => {
    const url = await listenLocally(t.app);
    const { user, token } = await newUser();
    const other = await newUser();
    const sockets: Socket[] = [];
    const open = (auth: string) => {
      const socket = connect(url, {
        transports: ["polling"],
        reconnection: false,
        auth: { token: auth },
      });
      sockets.push(socket);
      return new Promise<Socket>((resolve, reject) => {
        socket.on(SERVER_EVENTS.ready, () => resolve(socket));
        socket.on("connect_error", reject);
      });
    };
    try {
      const mine = await open(token);
      const theirs = await open(other.token);
      const received: TCreditsChanged[] = [];
      const leaked: TCreditsChanged[] = [];
      mine.on(SERVER_EVENTS.creditsChanged, (event: TCreditsChanged) => received.push(event));
      theirs.on(SERVER_EVENTS.creditsChanged, (event: TCreditsChanged) => leaked.push(event));

      await fund(user.id, 10);
      const hold = await reserveCredits(deps, personalPayer(user.id), h(3), `rt-${randomUUID()}`);
      await settleHold(deps, hold.id, h(1.5));
      const deadline = Date.now() + 5_000;
      while (received.length < 3 && Date.now() < deadline) {
        await sleep(20);
      }
      expect(received).toEqual([
        { balance: 10, available: 10, delta: 10, reason: "admin_adjustment" },
        { balance: 10, available: 7, delta: 0, reason: "hold" },
        { balance: 8.5, available: 8.5, delta: -1.5, reason: "usage" },
      ]);
      expect(leaked).toEqual([]);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });
});

describe("HTTP: the credit history groups a run's calls (decision 032)", () => {
  let fast: TestApp;
  beforeAll(async () => {
    fast = await createTestApp({ SIGNUP_CREDITS: "0", SIMULATOR_TOKENS_PER_SECOND: "0" });
    await fast.app.ready();
  });
  afterAll(() => fast.close());

  async function completedRun(client: Parameters<typeof createSession>[0], title: string) {
    const session = await createSession(client, { title });
    const { run_id, events } = await runToEnd(client, session.id, "Plan a product launch");
    const end = events.at(-1);
    if (end?.type !== "run.completed") throw new Error(`the run ended with ${end?.type}`);
    return { session, runId: run_id, cost: end.total_credits };
  }

  it("makes one row per run, linked to its session, and pages by rows", async () => {
    const { user, client } = await signUpWithCredits(fast.app, 100);
    const kept = await completedRun(client, "Launch plan");
    const gone = await completedRun(client, "Deleted later");
    expect((await client.delete(`/api/sessions/${gone.session.id}`)).statusCode).toBe(200);
    await grantCredits(creditsDeps(fast.app), {
      userId: user.id,
      credits: 5,
      reason: "admin_adjustment",
      reference: randomUUID(),
      description: "Goodwill",
    });

    const ledger = (await client.get("/api/billing/ledger?pageSize=100")).json();
    const charges = ledger.entries.filter((e: { reason: string }) => e.reason === "usage");
    expect(charges.length).toBeGreaterThan(2);
    expect(ledger.total).toBe(charges.length + 2);

    const first = await client.get("/api/billing/credit-history?page=1&pageSize=2");
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(page1.rows).toHaveLength(2);
    expect(page1.rows[0]).toMatchObject({
      kind: "entry",
      reason: "admin_adjustment",
      delta: 5,
      description: "Goodwill",
    });
    // A deleted session takes its runs along: the charges stay, without a link.
    expect(page1.rows[1]).toMatchObject({
      kind: "run",
      run_id: gone.runId,
      session_id: null,
      session_title: null,
      delta: -gone.cost,
    });

    const page2 = (await client.get("/api/billing/credit-history?page=2&pageSize=2")).json();
    expect(page2.total).toBe(4);
    const [run, opening] = page2.rows;
    expect(run).toMatchObject({
      kind: "run",
      id: `run:${kept.runId}`,
      run_id: kept.runId,
      session_id: kept.session.id,
      session_title: "Launch plan",
      delta: -kept.cost,
    });
    expect(run.calls.length).toBeGreaterThan(1);
    expect(run.calls.reduce((sum: number, c: { delta: number }) => sum + c.delta, 0)).toBeCloseTo(
      -kept.cost,
      10,
    );
    expect(run.balance_after).toBe(run.calls.at(-1).balance_after);
    expect(run.calls[0].model).toBe("coreason");
    expect(opening).toMatchObject({ kind: "entry", delta: 100 });
    // Every ledger entry is in exactly one row.
    const all = [...page1.rows, ...page2.rows].flatMap((row: { kind: string; calls?: [] }) =>
      row.kind === "run" ? (row.calls ?? []) : [row],
    );
    expect(all).toHaveLength(ledger.total);

    const past = (await client.get("/api/billing/credit-history?page=3&pageSize=2")).json();
    expect(past).toEqual({ rows: [], total: 4, page: 3, pageSize: 2 });
    const bad = await client.get("/api/billing/credit-history?pageSize=0");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe("validation_failed");
  });

  it("shows a user only their own history", async () => {
    const { client } = await signUpWithCredits(fast.app, 50);
    await completedRun(client, "Mine");
    const { client: other } = await signUp(fast.app);
    expect((await other.get("/api/billing/credit-history")).json()).toEqual({
      rows: [],
      total: 0,
      page: 1,
      pageSize: 20,
    });
    expect((await t.app.inject({ url: "/api/billing/credit-history" })).statusCode).toBe(401);
  });
});
