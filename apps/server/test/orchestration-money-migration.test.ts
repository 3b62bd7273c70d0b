import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../src/db/migrate";
import { migrations } from "../src/db/migrations";
import { createTestDb, type TestDb } from "./support/app";

const MONEY = "0012_credit_amounts_in_hundredths";

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb({ empty: true });
});
afterAll(() => testDb.drop());

describe("the migration to integer hundredths", () => {
  it("keeps every stored session, run and step amount, now in hundredths", async () => {
    const { db } = testDb;
    await migrate(
      db,
      migrations.filter((m) => m.id < MONEY),
    );
    const userId = randomUUID();
    const sessionId = randomUUID();
    const runId = randomUUID();
    await db.query("INSERT INTO users (id, email) VALUES ($1, $2)", [userId, `${userId}@x.test`]);
    await db.query(
      `INSERT INTO sessions (id, user_id, title, coordinator_model, budget_credits, spent_credits)
       VALUES ($1, $2, 'Old', 'coreason', 12.5, 3.07)`,
      [sessionId, userId],
    );
    await db.query(
      `INSERT INTO runs (id, session_id, user_id, message_id, status, mode, coordinator_model, instance_id, total_credits)
       VALUES ($1, $2, $3, $4, 'completed', 'automatic', 'coreason', 'old', 3.07)`,
      [runId, sessionId, userId, randomUUID()],
    );
    await db.query(
      `INSERT INTO run_steps (run_id, kind, model, model_name, status, reserved_credits, credits)
       VALUES ($1, 'agent', 'coreason', 'CoReason', 'completed', 4.1, 0.29)`,
      [runId],
    );

    expect(await migrate(db)).toContain(MONEY);
    const session = await db.query<{ budget_credits: number; spent_credits: number }>(
      "SELECT budget_credits, spent_credits FROM sessions WHERE id = $1",
      [sessionId],
    );
    expect(session.rows[0]).toEqual({ budget_credits: 1250, spent_credits: 307 });
    const run = await db.query("SELECT total_credits FROM runs WHERE id = $1", [runId]);
    expect(run.rows[0]).toEqual({ total_credits: 307 });
    const step = await db.query(
      "SELECT reserved_credits, credits FROM run_steps WHERE run_id = $1",
      [runId],
    );
    expect(step.rows[0]).toEqual({ reserved_credits: 410, credits: 29 });
    // New rows start at zero, and the checks still hold.
    const fresh = await db.query<{ spent_credits: number }>(
      `INSERT INTO sessions (user_id, title, coordinator_model) VALUES ($1, 'New', 'coreason')
       RETURNING spent_credits`,
      [userId],
    );
    expect(fresh.rows[0]?.spent_credits).toBe(0);
    await expect(
      db.query(
        "INSERT INTO sessions (user_id, title, coordinator_model, budget_credits) VALUES ($1, 'Bad', 'coreason', 0)",
        [userId],
      ),
    ).rejects.toThrow();
  });
});
