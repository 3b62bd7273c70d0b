import { randomBytes } from "node:crypto";
import type { TRun, TRunEvent } from "@cohort/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { creditsDeps } from "../src/modules/credits/credits-deps";
import { releaseHold } from "../src/modules/credits/release-hold";
import type { SignedUp } from "./support/accounts";
import { createTestDb, type TestDb, testConfig, testDbKind } from "./support/app";
import type { TestClient } from "./support/client";
import { recording } from "./support/recording-db";
import { createSession, eventsOf, runToEnd } from "./support/runs";
import { balanceOf, setCredits, signUpWithCredits } from "./support/runs-credits";
import { createCrew } from "./support/workspaces";

/**
 * A completed run's last call (the synthesis) is settled in the run's end statement (decision
 * 091): one statement charges it, ends its step, adds it to the session's spend, stores the
 * answer and ends the run with its total. Its rare paths keep the money exact: a hold the
 * sweeper expired before the end, an end statement that fails.
 */

/** The statement that settles a hold and ends the run: the synthesis's and the end's. */
const isFoldedEnd = (sql: string) =>
  sql.includes("UPDATE credit_holds SET status = 'settled'") && sql.includes("UPDATE runs SET");
/** Any statement that ends a run as completed or failed (its end or the folded one). */
const endsRun = (sql: string) => /UPDATE runs SET status = \$\d+, total_credits/.test(sql);

/** What the next folded end statement meets: `before` it is sent (may throw). */
let fault: ((sql: string, params: readonly unknown[]) => Promise<void>) | null = null;

let testDb: TestDb;
let statements: string[];
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDb();
  const recorded = recording(testDb.db, {
    async before(sql, params) {
      if (!fault || !isFoldedEnd(sql)) return;
      const once = fault;
      fault = null;
      await once(sql, params);
    },
  });
  statements = recorded.statements;
  const env = {
    SIMULATOR_TOKENS_PER_SECOND: "0",
    SIGNUP_CREDITS: "0",
    CREDITS_SWEEP_INTERVAL_SECONDS: "0",
  };
  app = await buildApp(testConfig(env), {
    db: recorded.db,
    redisPrefix: `test:${randomBytes(6).toString("hex")}:`,
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await testDb.drop();
});

interface Ledger {
  entries: { delta: number; reason: string; reference: string | null }[];
  total: number;
}

async function ledgerOf(client: TestClient): Promise<Ledger> {
  return (await client.get("/api/billing/ledger?page=1&pageSize=100")).json() as Ledger;
}

/** A run to its end, with the statements it sent and its stored picture. */
async function run(client: TestClient, options: { workspace_id?: string } = {}) {
  const session = await createSession(client, options);
  const from = statements.length;
  const { run_id, events } = await runToEnd(client, session.id, "Plan a small launch party");
  const sent = statements.slice(from);
  const detail = (await client.get(`/api/sessions/${session.id}`)).json();
  const stored = detail.runs.find((r: TRun) => r.id === run_id) as TRun;
  return { session: detail.session, detail, events, sent, run: stored };
}

/** Each step's charge, the run's total and the session's spend agree; nothing stays held. */
function expectTotalsAgree(picture: Awaited<ReturnType<typeof run>>) {
  const { run: stored, detail } = picture;
  const steps = stored.steps.reduce((sum, s) => sum + s.credits, 0);
  expect(stored.total_credits).toBeGreaterThan(0);
  expect(stored.total_credits).toBeCloseTo(steps, 2);
  expect(detail.session.spent_credits).toBeCloseTo(stored.total_credits, 2);
}

/** The synthesis's step and hold: charged once, and the ledger's usage lines once per call. */
async function expectChargedOnce(accountId: string, runId: string) {
  const { rows } = await testDb.db.query<{ reference: string; n: number; status: string }>(
    `SELECT h.reference, h.status,
       (SELECT count(*)::int FROM credit_ledger l WHERE l.reference = h.reference) AS n
     FROM credit_holds h WHERE h.user_id = $1 AND h.reference LIKE $2`,
    [accountId, `run:${runId}:%`],
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const hold of rows) {
    expect(hold.status === "settled" || hold.status === "released").toBe(true);
    expect(hold.n).toBeLessThanOrEqual(1);
  }
  const usage = await testDb.db.query<{ n: number; refs: number }>(
    `SELECT count(*)::int AS n, count(DISTINCT reference)::int AS refs FROM usage_events
     WHERE user_id = $1 AND reference LIKE $2`,
    [accountId, `run:${runId}:%`],
  );
  expect(usage.rows[0]?.n).toBe(usage.rows[0]?.refs);
}

/** A user who started with 200: down by the run's total, one usage line per call, once. */
async function expectSpentOnce(client: TestClient, userId: string, stored: TRun) {
  const balance = await balanceOf(app, userId);
  expect(balance.held).toBe(0);
  expect(balance.balance).toBeCloseTo(200 - stored.total_credits, 2);
  const usage = (await ledgerOf(client)).entries.filter((e) => e.reason === "usage");
  expect(usage).toHaveLength(stored.steps.length);
  expect(usage.reduce((sum, e) => sum - e.delta, 0)).toBeCloseTo(stored.total_credits, 2);
  await expectChargedOnce(userId, stored.id);
}

/** The synthesis's step completed and charged, as the run's end event says, totals agreeing. */
function expectSynthesisCharged(
  picture: Awaited<ReturnType<typeof run>>,
  completed: ReturnType<typeof completedOf>,
) {
  expectTotalsAgree(picture);
  expect(completed.total_credits).toBeCloseTo(picture.run.total_credits, 2);
  const synthesis = picture.run.steps.find((s) => s.kind === "synthesis");
  expect(synthesis?.status).toBe("completed");
  expect(synthesis?.credits).toBeGreaterThan(0);
  expect(completed.synthesis.credits).toBeCloseTo(synthesis?.credits ?? -1, 2);
  return synthesis;
}

function completedOf(events: readonly TRunEvent[]) {
  const completed = eventsOf(events, "run.completed")[0];
  expect(completed).toBeDefined();
  return completed as NonNullable<typeof completed>;
}

describe(`the synthesis's charge in the run's end statement (${testDbKind})`, () => {
  it("charges it, ends the run with its total and moves held to spent, in one statement", async () => {
    const { client, user } = await signUpWithCredits(app, 200);
    const picture = await run(client);
    const { events, sent, run: stored } = picture;
    const completed = completedOf(events);

    // One statement settles the synthesis and ends the run; no other statement ends it.
    expect(sent.filter(isFoldedEnd)).toHaveLength(1);
    expect(sent.filter(endsRun)).toHaveLength(1);

    const synthesis = expectSynthesisCharged(picture, completed);
    expect(completed.message.content.length).toBeGreaterThan(0);
    expect(picture.detail.messages.at(-1)).toMatchObject({
      id: completed.message.id,
      role: "assistant",
    });

    // The synthesis's charge is announced before the run's end, with the run's total.
    const charges = eventsOf(events, "credits.changed");
    expect(charges).toHaveLength(stored.steps.length);
    const last = charges.at(-1);
    expect(last?.call_id).toBe(synthesis?.id);
    expect(events.indexOf(last as TRunEvent)).toBeLessThan(events.indexOf(completed));
    expect(last?.run_credits).toBeCloseTo(stored.total_credits, 2);

    // The ledger: one usage line per call, held back to 0, the balance down by the total.
    await expectSpentOnce(client, user.id, stored);
    const stats = (await client.get("/api/billing/usage-stats")).json();
    expect(stats.total_requests).toBe(stored.steps.length);
    expect(stats.total_credits_used).toBeCloseTo(stored.total_credits, 2);
  });

  it("charges a team's pool within the member's cap, counted against the member", async () => {
    const crew = await createCrew(app, 1);
    const member = crew.members[0] as SignedUp;
    await setCredits(app, crew.id, 300);
    await setCredits(app, member.user.id, 50);
    const capped = await crew.owner.client.put(
      `/api/workspaces/${crew.id}/members/${member.user.id}/cap`,
      { monthly_cap_credits: 120 },
    );
    expect(capped.statusCode).toBe(200);
    const picture = await run(member.client, { workspace_id: crew.id });
    completedOf(picture.events);
    expect(picture.sent.filter(isFoldedEnd)).toHaveLength(1);
    expectTotalsAgree(picture);

    const total = picture.run.total_credits;
    expect(await balanceOf(app, member.user.id)).toEqual({ balance: 50, held: 0, available: 50 });
    const pool = await balanceOf(app, crew.id);
    expect(pool.held).toBe(0);
    expect(pool.balance).toBeCloseTo(300 - total, 2);
    const usage = (await crew.owner.client.get(`/api/workspaces/${crew.id}/usage`)).json();
    const mine = usage.members.find((m: { user_id: string }) => m.user_id === member.user.id);
    expect(mine?.spent_credits).toBeCloseTo(total, 2);
    expect(mine?.spent_credits).toBeLessThanOrEqual(120);
    await expectChargedOnce(crew.id, picture.run.id);
  });

  it("charges a hold the sweeper expired before the end, then stores the end on its own", async () => {
    const { client, user } = await signUpWithCredits(app, 200);
    const deps = creditsDeps(app);
    fault = async (_sql, params) => {
      // The sweeper got to the synthesis's hold ($1) just before the run's end statement.
      expect(await releaseHold(deps, params[0] as string, "expired")).toBe(true);
    };
    const picture = await run(client);
    expect(fault).toBeNull();
    const completed = completedOf(picture.events);
    const { run: stored } = picture;
    // The folded statement wrote nothing (its hold was not open); the end was stored alone.
    expect(picture.sent.filter(endsRun)).toHaveLength(2);
    // The balance covered it: charged in full, late, once.
    expectSynthesisCharged(picture, completed);
    await expectSpentOnce(client, user.id, stored);
  });

  it("settles the charge on its own once when the end statement fails, and still completes", async () => {
    const { client, user } = await signUpWithCredits(app, 200);
    fault = async () => {
      throw new Error("Connection terminated unexpectedly");
    };
    const picture = await run(client);
    expect(fault).toBeNull();
    const completed = completedOf(picture.events);
    const { run: stored } = picture;
    expectSynthesisCharged(picture, completed);
    await expectSpentOnce(client, user.id, stored);
  });

  it("charges once and fails the run when its end cannot be stored at all (a trigger raises)", async () => {
    const { client, user } = await signUpWithCredits(app, 200);
    await testDb.db.exec(`
      CREATE FUNCTION test_refuse_completion() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'completion refused by a test'; END $$;
      CREATE TRIGGER test_refuse_completion BEFORE UPDATE ON runs FOR EACH ROW
        WHEN (NEW.status = 'completed') EXECUTE FUNCTION test_refuse_completion();
    `);
    try {
      const picture = await run(client);
      const end = picture.events.at(-1);
      expect(end?.type).toBe("run.failed");
      const { run: stored } = picture;
      expect(stored.status).toBe("failed");
      // The synthesis was answered and charged once; the run's total and the spend say so.
      expectTotalsAgree(picture);
      const synthesis = stored.steps.find((s) => s.kind === "synthesis");
      expect(synthesis?.status).toBe("completed");
      expect(synthesis?.credits).toBeGreaterThan(0);
      expect(end?.type === "run.failed" ? end.total_credits : -1).toBeCloseTo(
        stored.total_credits,
        2,
      );
      expect(picture.detail.messages.map((m: { role: string }) => m.role)).toEqual(["user"]);
      await expectSpentOnce(client, user.id, stored);
    } finally {
      await testDb.db.exec(`
        DROP TRIGGER test_refuse_completion ON runs;
        DROP FUNCTION test_refuse_completion();
      `);
    }
  });
});
