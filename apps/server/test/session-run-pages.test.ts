import type { TRun, TSessionDetailResponse, TSessionRunsResponse } from "@cohort/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedUp, signUp } from "./support/accounts";
import { createTestApp, type TestApp } from "./support/app";
import { createSession, runToEnd } from "./support/runs";
import { signUpWithCredits } from "./support/runs-credits";

/**
 * A long session a page at a time (decision 077): `GET /api/sessions/:id?runs=N` gives the
 * newest N runs in full and the older ones as outlines; `GET /api/sessions/:id/runs?before=`
 * reads the older ones in full, a page at a time, oldest first, with whether more remain.
 * Without `runs`, the detail is as it was: every run in full.
 */

let t: TestApp;
let owner: SignedUp;
let outsider: SignedUp;
let sessionId: string;
let otherSessionId: string;
/** The session's runs in full, oldest first, as the unpaged detail gives them. */
let all: TRun[];

const QUESTIONS = ["First question", "Second question", "Third question", "Fourth question"];

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_TOKENS_PER_SECOND: "0" });
  await t.app.ready();
  [owner, outsider] = [await signUpWithCredits(t.app, 500), await signUp(t.app)];
  const session = await createSession(owner.client, { title: "Long" });
  sessionId = session.id;
  for (const question of QUESTIONS) {
    await runToEnd(owner.client, sessionId, question);
  }
  const other = await createSession(owner.client, { title: "Other" });
  otherSessionId = other.id;
  await runToEnd(owner.client, otherSessionId, "Elsewhere");

  const detail = await owner.client.get(`/api/sessions/${sessionId}`);
  expect(detail.statusCode).toBe(200);
  all = (detail.json() as TSessionDetailResponse).runs;
}, 60_000);

afterAll(() => t?.close());

/** What an outline keeps of a run: all but its plan, steps, material and tool calls. */
const outlineOf = ({
  passages,
  cited,
  memories,
  draft_scores,
  critic_evidence,
  critic_checks,
  tool_calls,
  ...run
}: TRun): TRun => ({ ...run, plan: null, steps: [], outline: true });

describe("GET /api/sessions/:id?runs=N", () => {
  it("without runs: every run in full, none an outline", () => {
    expect(all).toHaveLength(4);
    expect(all.every((run) => run.outline === undefined && run.steps.length > 0)).toBe(true);
    expect(all.every((run) => run.plan !== null)).toBe(true);
  });

  it("gives the newest N runs in full and the older ones as outlines, oldest first", async () => {
    const response = await owner.client.get(`/api/sessions/${sessionId}?runs=2`);
    expect(response.statusCode).toBe(200);
    const body = response.json() as TSessionDetailResponse;
    const [first, second, third, fourth] = all as [TRun, TRun, TRun, TRun];
    expect(body.runs).toEqual([outlineOf(first), outlineOf(second), third, fourth]);
    // Messages and the rest of the detail are the same as unpaged.
    const unpaged = (await owner.client.get(`/api/sessions/${sessionId}`)).json();
    expect(body.messages).toEqual(unpaged.messages);
    expect(body.last_seq).toBe(unpaged.last_seq);
    expect(body.session).toEqual(unpaged.session);
  });

  it("more than there are: every run in full", async () => {
    const response = await owner.client.get(`/api/sessions/${sessionId}?runs=50`);
    expect(response.statusCode).toBe(200);
    expect((response.json() as TSessionDetailResponse).runs).toEqual(all);
  });

  it("refuses a page of 0 or over 50 with 400", async () => {
    for (const runs of ["0", "51", "two"]) {
      const response = await owner.client.get(`/api/sessions/${sessionId}?runs=${runs}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("validation_failed");
    }
  });
});

describe("GET /api/sessions/:id/runs?before=", () => {
  it("reads the runs just older than `before` in full, oldest first, a page at a time", async () => {
    const [first, second, third, fourth] = all as [TRun, TRun, TRun, TRun];
    const page = await owner.client.get(
      `/api/sessions/${sessionId}/runs?before=${fourth.id}&limit=2`,
    );
    expect(page.statusCode).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.json()).toEqual({ runs: [second, third], earlier: true });

    const last = await owner.client.get(
      `/api/sessions/${sessionId}/runs?before=${second.id}&limit=2`,
    );
    expect(last.statusCode).toBe(200);
    expect(last.json()).toEqual({ runs: [first], earlier: false });

    const none = await owner.client.get(`/api/sessions/${sessionId}/runs?before=${first.id}`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ runs: [], earlier: false });
  });

  it("takes 10 runs by default", async () => {
    const [, , , fourth] = all as [TRun, TRun, TRun, TRun];
    const response = await owner.client.get(`/api/sessions/${sessionId}/runs?before=${fourth.id}`);
    const body = response.json() as TSessionRunsResponse;
    expect(body).toEqual({ runs: all.slice(0, 3), earlier: false });
  });

  it("answers 404 for a run of another session or none, and to an outsider", async () => {
    const elsewhere = (await owner.client.get(`/api/sessions/${otherSessionId}`)).json()
      .runs[0] as TRun;
    for (const before of [elsewhere.id, "00000000-0000-4000-8000-000000000000", "not-a-run"]) {
      const response = await owner.client.get(`/api/sessions/${sessionId}/runs?before=${before}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toEqual({
        code: "not_found",
        message: "This run does not exist.",
      });
    }
    const [, , , fourth] = all as [TRun, TRun, TRun, TRun];
    const outside = await outsider.client.get(
      `/api/sessions/${sessionId}/runs?before=${fourth.id}`,
    );
    expect(outside.statusCode).toBe(404);
  });

  it("refuses a missing `before` and a limit over 50 with 400", async () => {
    const [, , , fourth] = all as [TRun, TRun, TRun, TRun];
    for (const query of [
      "",
      "?before=",
      `?before=${fourth.id}&limit=51`,
      `?before=${fourth.id}&limit=0`,
    ]) {
      const response = await owner.client.get(`/api/sessions/${sessionId}/runs${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("validation_failed");
    }
  });
});
