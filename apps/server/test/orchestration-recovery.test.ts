import { randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { CLIENT_EVENTS, hundredths, SERVER_EVENTS, type TRunEvent } from "@cohort/contracts";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app";
import { creditsDeps } from "../src/modules/credits/credits-deps";
import { personalPayer } from "../src/modules/credits/payer";
import { reserveCredits } from "../src/modules/credits/reserve-credits";
import { signUp } from "./support/accounts";
import { createTestDb, startInstance, type TestDb, testConfig, testDbKind } from "./support/app";
import { TestClient } from "./support/client";
import { FakeProviderServer } from "./support/fake-provider/fake-provider-server";
import {
  createSession,
  sendMessage,
  sessionEvents,
  waitForEvent,
  waitForRunEnd,
} from "./support/runs";
import { balanceOf, signUpWithCredits } from "./support/runs-credits";

/** Several app instances on one database: a crash's leftovers, and stops across instances. */
let fake: FakeProviderServer;
let testDb: TestDb;

beforeAll(async () => {
  fake = await FakeProviderServer.start();
  testDb = await createTestDb();
});
afterAll(async () => {
  await testDb?.drop();
  await fake?.close();
});

const env = () =>
  testConfig({
    SIGNUP_CREDITS: "0",
    OPENAI_API_KEY: "sk-hosted",
    OPENAI_BASE_URL: fake.baseUrls.openai,
  });

const modelRef = { model: "cologic", model_name: "CoLogic", provider: "openai", simulated: false };

/**
 * The start of a run an instance was making when it crashed: a user with 20 credits, their
 * session and message, and `heldHundredths` held for the run's `holdPart`; the instance is
 * closed, and the test writes the rest of what the crash left.
 */
async function crashedRunOf(message: string, heldHundredths: number, holdPart: string) {
  const first = await startInstance(env(), testDb.db);
  const { client, user, token } = await signUpWithCredits(first, 20);
  const session = await createSession(client);
  const runId = randomUUID();
  const hold = await reserveCredits(
    creditsDeps(first),
    personalPayer(user.id),
    hundredths(heldHundredths),
    `run:${runId}:${holdPart}`,
  );
  await first.close();
  const messageId = randomUUID();
  await testDb.db.query(
    `INSERT INTO session_messages (id, session_id, role, content, run_id) VALUES ($1, $2, 'user', $3, $4)`,
    [messageId, session.id, message, runId],
  );
  return { first, user, token, session, runId, hold, messageId };
}

describe("a run left running by a crash", () => {
  it("is resumed from its last completed step: the cut-off call is released and made again, nothing is paid twice", async () => {
    // What a crash mid-run leaves behind: an active run with its plan, one agent's call
    // completed (and paid), the other's cut off with its hold still open.
    const { first, user, token, session, runId, hold, messageId } = await crashedRunOf(
      "Lost?",
      500,
      "crashed",
    );
    const plan = {
      mode: "automatic",
      rationale: "two parts",
      notes: [],
      coordinator: { ...modelRef, model: "coreason", model_name: "CoReason" },
      steps: [
        { id: "s1", role: "coder", task: "Write it", depends_on: [], phase: "agent", ...modelRef },
        {
          id: "s2",
          role: "strategist",
          task: "Plan it",
          depends_on: [],
          phase: "agent",
          ...modelRef,
        },
      ],
    };
    await testDb.db.query(
      `INSERT INTO runs (id, session_id, user_id, message_id, status, mode, coordinator_model, instance_id, heartbeat_at, plan, first_seq)
       VALUES ($1, $2, $3, $4, 'running', 'automatic', 'coreason', 'crashed', now() - interval '10 minutes', $5, 1)`,
      [runId, session.id, user.id, messageId, JSON.stringify(plan)],
    );
    await testDb.db.query(
      `INSERT INTO run_steps (run_id, kind, step_id, role, model, model_name, status, credits, output, finished_at)
       VALUES ($1, 'agent', 's1', 'coder', 'cologic', 'CoLogic', 'completed', 100, 'The coder''s draft.', now())`,
      [runId],
    );
    await testDb.db.query(
      `INSERT INTO run_steps (run_id, kind, step_id, role, model, model_name, hold_id, reserved_credits, output)
       VALUES ($1, 'agent', 's2', 'strategist', 'cologic', 'CoLogic', $2, 500, 'partial')`,
      [runId, hold.id],
    );
    expect((await balanceOf(first, user.id)).held).toBe(5);

    fake.reset();
    const second = await startInstance(env(), testDb.db);
    try {
      const client = new TestClient(second);
      client.bearer = token;
      const events = await waitForRunEnd(client, session.id, runId);
      expect(events.find((e) => e.type === "run.resumed")).toMatchObject({
        run_id: runId,
        from_status: "running",
        reused_steps: 1,
        attempt: 1,
      });
      expect(events.at(-1)).toMatchObject({ type: "run.completed", run_id: runId });
      // Only the cut-off agent and the synthesis were called: the coder's draft was kept.
      expect(fake.requests).toHaveLength(2);
      const synthesisPrompt = JSON.stringify(fake.requests[1]?.body);
      expect(synthesisPrompt).toContain("The coder's draft.");

      const detail = (await client.get(`/api/sessions/${session.id}`)).json();
      expect(detail.messages.map((m: { content: string }) => m.content)[0]).toBe("Lost?");
      const steps = detail.runs[0].steps as { step_id: string; kind: string; status: string }[];
      expect(steps.filter((s) => s.step_id === "s1").map((s) => s.status)).toEqual(["completed"]);
      expect(steps.filter((s) => s.step_id === "s2").map((s) => s.status)).toEqual([
        "stopped",
        "completed",
      ]);
      expect(detail.runs[0].status).toBe("completed");
      await second.orchestration.control.idle();
      const balance = await balanceOf(second, user.id);
      expect(balance.held).toBe(0);
      const { rows } = await testDb.db.query<{ open: number }>(
        `SELECT count(*)::int AS open FROM credit_holds WHERE status = 'open' AND user_id = $1`,
        [user.id],
      );
      expect(rows[0]?.open).toBe(0);
    } finally {
      await second.close();
    }
  });

  it("ends as failed, its holds released, once it was resumed too often", async () => {
    const { user, token, session, runId, hold, messageId } = await crashedRunOf(
      "Again?",
      300,
      "plan",
    );
    await testDb.db.query(
      `INSERT INTO runs (id, session_id, user_id, message_id, status, mode, coordinator_model, instance_id, heartbeat_at, first_seq, resume_count)
       VALUES ($1, $2, $3, $4, 'planning', 'automatic', 'coreason', 'crashed', now() - interval '10 minutes', 1, 3)`,
      [runId, session.id, user.id, messageId],
    );
    expect(hold.id).toBeTruthy();
    const again = await startInstance(env(), testDb.db);
    try {
      const viaAgain = new TestClient(again);
      viaAgain.bearer = token;
      const events = await waitForRunEnd(viaAgain, session.id, runId);
      expect(events.at(-1)).toMatchObject({
        type: "run.failed",
        code: "run_interrupted",
        message: expect.stringContaining("Please send it again"),
      });
      expect(events.some((e) => e.type === "run.resumed")).toBe(false);
      expect(await balanceOf(again, user.id)).toEqual({ balance: 20, held: 0, available: 20 });
    } finally {
      await again.close();
    }
  });

  it.runIf(testDbKind === "postgres")(
    "is left alone while its instance still beats (another live server's run)",
    async () => {
      const app = await startInstance(env(), testDb.db);
      try {
        const { client, user } = await signUp(app);
        const session = await createSession(client);
        const runId = randomUUID();
        await testDb.db.query(
          `INSERT INTO runs (id, session_id, user_id, message_id, status, mode, coordinator_model, instance_id)
           VALUES ($1, $2, $3, $4, 'running', 'automatic', 'coreason', 'alive')`,
          [runId, session.id, user.id, randomUUID()],
        );
        await app.orchestration.control.recover();
        const { rows } = await testDb.db.query<{ status: string }>(
          "SELECT status FROM runs WHERE id = $1",
          [runId],
        );
        expect(rows[0]?.status).toBe("running");
        await testDb.db.query("UPDATE runs SET status = 'failed' WHERE id = $1", [runId]);
      } finally {
        await app.close();
      }
    },
  );
});

describe.runIf(testDbKind === "postgres")("a run started where it was posted", () => {
  it("runs there without a job; a drain hands it on through the queue and another instance ends it once", async () => {
    const prefix = `test:${randomBytes(6).toString("hex")}:`;
    const a = await buildApp(env(), { db: testDb.db, redisPrefix: prefix });
    const b = await buildApp(env(), { db: testDb.db, redisPrefix: prefix });
    try {
      const { client, user, token } = await signUpWithCredits(a, 50);
      const session = await createSession(client);
      fake.reset();
      fake.next(
        {
          json: { rationale: "r", steps: [{ id: "s1", role: "coder", task: "t", dependsOn: [] }] },
        },
        { hang: true },
      );
      const { run_id } = await sendMessage(client, session.id, "Start here");
      await fake.waitForRequests(2);
      // Executed by the instance it was posted to, with no job in the queue (decision 083).
      expect(a.orchestration.control.activeRunIds()).toEqual([run_id]);
      expect(b.orchestration.control.activeRunIds()).toEqual([]);
      const jobs = () =>
        testDb.db.query<{ n: number; resumes: number }>(
          `SELECT (SELECT count(*)::int FROM graphile_worker.jobs WHERE key = $1) AS n,
             (SELECT resume_count FROM runs WHERE id = $2) AS resumes`,
          [`run:${run_id}`, run_id],
        );
      expect((await jobs()).rows[0]).toEqual({ n: 0, resumes: 0 });

      // The drain hands it on: by the time the instance closed, its job is queued (or another
      // instance took it from there); its heartbeat is fresh, so no sweep could have.
      await a.close();
      const after = (await jobs()).rows[0];
      expect((after?.n ?? 0) + (after?.resumes ?? 0)).toBeGreaterThan(0);

      const viaB = new TestClient(b);
      viaB.bearer = token;
      const events = await waitForRunEnd(viaB, session.id, run_id);
      expect(events.at(-1)?.type).toBe("run.completed");
      expect(events.filter((e) => e.type === "run.resumed")).toMatchObject([{ attempt: 1 }]);
      expect(events.filter((e) => e.type === "run.completed")).toHaveLength(1);
      // The plan was asked for once; the cut-off call once more.
      expect(fake.requests.filter((r) => JSON.stringify(r.body).includes("run_plan"))).toHaveLength(
        1,
      );
      await b.orchestration.control.idle();
      expect((await balanceOf(b, user.id)).held).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe.runIf(testDbKind === "postgres" && Boolean(process.env.TEST_REDIS_URL))(
  "two instances with Redis",
  () => {
    it("stops a run from the other instance and carries its events to the other's sockets", async () => {
      const prefix = `test:${randomBytes(6).toString("hex")}:`;
      const a = await buildApp(env(), { db: testDb.db, redisPrefix: prefix });
      const b = await buildApp(env(), { db: testDb.db, redisPrefix: prefix });
      let socket: Socket | undefined;
      try {
        await b.listen({ port: 0, host: "127.0.0.1" });
        const { client, user, token } = await signUpWithCredits(a, 50);
        const session = await createSession(client);

        socket = connect(`http://127.0.0.1:${(b.server.address() as AddressInfo).port}`, {
          transports: ["polling"],
          reconnection: false,
          auth: { token },
        });
        const seen: TRunEvent[] = [];
        socket.on(SERVER_EVENTS.runEvent, (event: TRunEvent) => seen.push(event));
        await new Promise<void>((resolve, reject) => {
          socket?.once("connect", () => resolve());
          socket?.once("connect_error", reject);
        });
        const ack = await socket
          .timeout(5_000)
          .emitWithAck(CLIENT_EVENTS.joinSession, { sessionId: session.id });
        expect(ack.ok).toBe(true);

        fake.reset();
        fake.next(
          {
            json: {
              rationale: "r",
              steps: [{ id: "s1", role: "coder", task: "t", dependsOn: [] }],
            },
          },
          { hang: true },
        );
        const { run_id } = await sendMessage(client, session.id, "Run on A");
        await fake.waitForRequests(2);
        // The run was queued by A; whichever instance's worker picked it up runs it.
        const runner = a.orchestration.control.activeRunIds().includes(run_id) ? a : b;
        const other = runner === a ? b : a;
        expect(runner.orchestration.control.activeRunIds()).toEqual([run_id]);
        expect(other.orchestration.control.activeRunIds()).toEqual([]);

        // The stop arrives at the instance that does not run it: it goes across through Redis.
        const viaB = new TestClient(other);
        viaB.bearer = token;
        const cancel = await viaB.post(`/api/ai/chat/${run_id}/cancel`);
        expect(cancel.json()).toEqual({ run_id, status: "cancelled" });

        // The answer comes once the run has ended; its last event is stored a round trip later.
        await waitForEvent(
          viaB,
          session.id,
          (e) => e.run_id === run_id && e.type === "run.cancelled",
        );
        const stored = (await sessionEvents(viaB, session.id)).filter((e) => e.run_id === run_id);
        expect(stored.at(-1)).toMatchObject({ type: "run.cancelled", reason: "user" });
        const deadline = Date.now() + 10_000;
        while (seen.length < stored.length && Date.now() < deadline) {
          await sleep(20);
        }
        expect(seen).toEqual(stored);
        expect((await balanceOf(a, user.id)).held).toBe(0);
      } finally {
        socket?.close();
        await a.close();
        await b.close();
      }
    });
  },
);
