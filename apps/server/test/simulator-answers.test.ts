import type { TRun } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignedUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { uploadProcessed } from "./support/documents";
import { createSession, runToEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";

/**
 * The built-in simulator answers the question it was asked (decision 056), through the whole
 * engine: a question about a library's rules gets the rule that answers it, quoted and cited,
 * not a plan; a lending API lends books to members; two models draft differently.
 */
const RULES = [
  "# Lending rules",
  "",
  "Books are lent for three weeks, and a late book costs 0.20 per day.",
  "DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.",
  "Members may borrow at most ten items at a time.",
].join("\n");

let t: TestApp;
let user: SignedUp;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0", SIGNUP_CREDITS: "0" });
  await t.app.ready();
  user = await signUpWithCredits(t.app, 500);
});
afterAll(() => t?.close());

async function run(message: string, body: Record<string, unknown> = {}) {
  const session = await createSession(user.client, body);
  return runIn(session.id, message);
}

async function runIn(sessionId: string, message: string) {
  const { events } = await runToEnd(user.client, sessionId, message);
  expect(events.at(-1)?.type).toBe("run.completed");
  const detail = (await user.client.get(`/api/sessions/${sessionId}`)).json();
  return detail.runs.at(-1) as TRun;
}

const outputOf = (run: TRun, role: string) => run.steps.find((s) => s.role === role)?.output ?? "";

describe("the simulator answers the question asked", () => {
  it("quotes and cites the rule about DVDs for a question about a late DVD", async () => {
    const rules = await uploadProcessed(user.client, "lending-rules.md", RULES);
    const session = await createSession(user.client);
    const attached = await user.client.put(`/api/sessions/${session.id}/documents`, {
      document_ids: [rules.id],
    });
    expect(attached.statusCode).toBe(200);
    const answered = await runIn(session.id, "What is the fine for a DVD returned late?");
    const strategist = outputOf(answered, "strategist");
    expect(strategist).toContain(
      "answers it: “DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.” [1]",
    );
    expect(strategist).not.toContain("Clarify the goal");
    expect(strategist).not.toContain("Books are lent");
    expect(answered.steps.map((s) => s.role)).not.toContain("coder");
    // The final answer quotes the same sentence.
    expect(answered.steps.at(-1)?.output).toContain(
      "“DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.” [1]",
    );
    // A correct, cited answer scores high, with nothing to fix and no revision (decision 065).
    const strategistId = answered.steps.find((s) => s.role === "strategist")?.step_id as string;
    expect(answered.critic_score).toBe(9);
    expect(answered.draft_scores).toEqual({ [strategistId]: 9 });
    expect(outputOf(answered, "critic")).toContain(
      "**Issues and fixes**\nNone: nothing in the drafts needs fixing.",
    );
    expect(answered.steps.filter((s) => s.kind === "revision")).toEqual([]);
    // The summary says what was done; no plan label, no generic next steps.
    expect(strategist.split("\n")[0]).toBe("## The fine for a DVD returned late");
    expect(answered.steps.at(-1)?.output).toBe(
      [
        "## Summary",
        "",
        "The fine for a DVD returned late: answered from lending-rules.md, quoting the passage that says it [1]. The Critic checked it against the passage: 9/10, nothing to fix.",
        "",
        "### Answer",
        "",
        "**lending-rules.md** answers it: “DVDs are lent for one week, and a late DVD costs 1.00 per day, up to 10.00.” [1]",
        "",
        "Open [1] to read it in its place in lending-rules.md.",
      ].join("\n"),
    );
  });

  it("says plainly that it has no facts of its own when no document answers", async () => {
    const answered = await run("What is the fine for a DVD returned late?");
    expect(outputOf(answered, "strategist")).toContain(
      "I can't answer that from facts: this is Cohort's built-in simulator, not a real model, so it knows nothing about the fine for a DVD returned late of its own.",
    );
  });

  it("writes a lending API about loans of books to members, not a to-do list", async () => {
    const built = await run("Build a REST API for library lending");
    const code = outputOf(built, "coder");
    expect(code).toContain(
      "interface Loan {\n  id: number;\n  bookId: number;\n  memberId: number;",
    );
    expect(code).toContain("/loans");
    expect(code).not.toMatch(/\btitle\b|\bdone\b|\btodo/i);
  });

  it("writes different code on another model: the Coder's draft follows its model", async () => {
    const task = "Write a Python script that dedupes CSV rows";
    const on = async (model: string) =>
      outputOf(
        await run(task, {
          manual_agent_selection: true,
          agent_preferences: {
            strategist: { enabled: false },
            coder: { enabled: true, model },
            designer: { enabled: false },
            critic: { enabled: true },
          },
        }),
        "coder",
      );
    const [onLogic, onReason, onQuick] = [
      await on("cologic"),
      await on("coreason"),
      await on("coquick"),
    ];
    // The same code, since it does what was asked; what each model adds around it differs.
    for (const text of [onLogic, onReason, onQuick]) expect(text).toContain("def dedupe_rows(");
    expect(onLogic).toContain("**Edge cases**");
    expect(onReason).toContain("**Trade-off**:");
    expect(onQuick).not.toMatch(/\*\*(?:Edge cases|Trade-off)\*\*/);
    expect(new Set([onLogic, onReason, onQuick]).size).toBe(3);
  });

  it("drafts a different plan on another model", async () => {
    const task = "Plan the move of our library to a new building";
    const onReason = outputOf(
      await run(task, {
        agent_preferences: { strategist: { enabled: true, model: "coreason" } },
      }),
      "strategist",
    );
    const onQuick = outputOf(
      await run(task, {
        agent_preferences: { strategist: { enabled: true, model: "coquick" } },
      }),
      "strategist",
    );
    expect(onReason.split("\n")[0]).toBe("## The move of your library to a new building");
    expect(onQuick.split("\n")[0]).toBe("## The move of your library to a new building");
    expect(onQuick).not.toBe(onReason);
    const angle = (text: string) => /\*\*Angle:\*\* (.+)/.exec(text)?.[1];
    expect(angle(onQuick)).toBeDefined();
    expect(angle(onQuick)).not.toBe(angle(onReason));
  });
});
