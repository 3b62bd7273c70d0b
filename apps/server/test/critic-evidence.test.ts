import type { TRun } from "@cohort/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestApp } from "./support/app";
import type { TestClient } from "./support/client";
import type {
  FakeProviderServer,
  RecordedRequest,
} from "./support/fake-provider/fake-provider-server";
import { startHostedOpenAiApp } from "./support/hosted-openai";
import { pdfText } from "./support/pdf";
import { createSession, eventsOf, runToEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";

/**
 * The evidence-based Critic (decision 062): the Coder's code and tests run in the embedded
 * sandbox before the Critic scores; the verdict carries the checks and the revision round
 * reads the failures. Models are a local server speaking OpenAI's wire format.
 */
let fake: FakeProviderServer;
let t: TestApp;

beforeAll(async () => {
  ({ t, fake } = await startHostedOpenAiApp());
  await t.app.ready();
}, 120_000);
afterAll(() => t?.close());
beforeEach(() => fake.reset({ text: "A draft from the fake provider." }));

const bodyOf = (request: RecordedRequest | undefined) => JSON.stringify(request?.body ?? {});

const PLAN = {
  json: {
    rationale: "Code, then review.",
    steps: [
      // With tools on offer, each step names the ones it expects (decision 067): none here.
      {
        id: "s1",
        role: "coder",
        task: "Write the fine calculator with tests",
        dependsOn: [],
        tools: [],
      },
      { id: "s2", role: "critic", task: "Review the code", dependsOn: ["s1"], tools: [] },
    ],
  },
};

const CODER_DRAFT = [
  "Here is the library's fine calculator.",
  "",
  "```python",
  "def fine(days_overdue):",
  "    return max(0, days_overdue) * 0.25",
  "```",
  "",
  "And its tests:",
  "",
  "```python",
  "def test_on_time():",
  "    assert fine(0) == 0",
  "",
  "def test_negative_days():",
  "    assert fine(-2) == 0",
  "",
  "def test_overdue_fine():",
  "    assert fine(4) == 2.0, 'four days cost 2.00'",
  "```",
].join("\n");

async function runTask(client: TestClient) {
  const session = await createSession(client);
  const { events } = await runToEnd(client, session.id, "Write a library fine calculator", 150_000);
  const detail = (await client.get(`/api/sessions/${session.id}`)).json();
  return { events, run: detail.runs.at(-1) as TRun };
}

async function user() {
  const signed = await signUpWithCredits(t.app, 500);
  return signed;
}

describe("the Critic judges code with evidence", () => {
  it("runs the draft's tests, shows the checks on the verdict and hands failures to the revision", async () => {
    const { client } = await user();
    fake.next(
      PLAN,
      { text: CODER_DRAFT },
      { text: "Draft s1: 5/10\n1. The fine per day is wrong.\nScore: 5/10\nVerdict: revise" },
      { text: "REVISED: fine = days * 0.5" },
      { text: "The final answer." },
    );
    const { events, run } = await runTask(client);
    expect(events.at(-1)?.type).toBe("run.completed");
    expect(eventsOf(events, "critic.verdict")[0]).toMatchObject({
      score: 5,
      verdict: "revise",
      evidence: "ran",
      checks: { ran: 3, passed: 2, failed: 1, failures: ["test_overdue_fine"] },
    });
    const critic = bodyOf(fake.requests[2]);
    expect(critic).toContain("Draft s1: Ran 3 checks: 2 passed, 1 failed (test_overdue_fine).");
    expect(critic).toContain("FAILED test_overdue_fine: AssertionError: four days cost 2.00");
    const revision = bodyOf(fake.requests[3]);
    expect(revision).toContain("The fine per day is wrong.");
    expect(revision).toContain("FAILED test_overdue_fine: AssertionError: four days cost 2.00");

    // Persisted (decision 068): the stored run, every export and a share link carry them.
    const CHECKS = { ran: 3, passed: 2, failed: 1, failures: ["test_overdue_fine"] };
    expect(run).toMatchObject({ critic_evidence: "ran", critic_checks: CHECKS });
    const sessionId = run.session_id;
    const json = (await client.get(`/api/sessions/${sessionId}/export?format=json`)).json();
    expect(json.runs[0].critic_verdicts[0]).toMatchObject({ evidence: "ran", checks: CHECKS });
    const markdown = (await client.get(`/api/sessions/${sessionId}/export?format=markdown`)).body;
    expect(markdown).toContain(
      "**Checks:** Ran 3 checks: 2 passed, 1 failed (test_overdue_fine). Score based on evidence.",
    );
    const pdf = await client.get(`/api/sessions/${sessionId}/export?format=pdf`);
    expect(pdf.statusCode).toBe(200);
    const { text } = await pdfText(pdf.rawPayload);
    expect(text.replace(/\s+/g, "")).toContain("Ran3checks:2passed,1failed(test_overdue_fine)");
    const share = await client.post(`/api/sessions/${sessionId}/shares`, {});
    expect(share.statusCode).toBe(201);
    const token = new URL(share.json().url).pathname.split("/").at(-1);
    const shared = (await t.app.inject({ method: "GET", url: `/api/share/${token}` })).json();
    expect(shared.runs[0]).toMatchObject({ critic_evidence: "ran", critic_checks: CHECKS });
  }, 180_000);

  it("scores by opinion when the drafts hold no code with tests", async () => {
    const { client } = await user();
    fake.next(
      PLAN,
      { text: "```python\nprint('no tests here')\n```" },
      { text: "Draft s1: 8/10\nScore: 8/10\nVerdict: approve" },
      { text: "The final answer." },
    );
    const { events } = await runTask(client);
    expect(events.at(-1)?.type).toBe("run.completed");
    const verdict = eventsOf(events, "critic.verdict")[0];
    expect(verdict).toMatchObject({ score: 8, verdict: "approve", evidence: "opinion" });
    expect(verdict?.checks).toBeUndefined();
    expect(bodyOf(fake.requests[2])).not.toContain("Checks run on the drafts' code");
  }, 180_000);
});
