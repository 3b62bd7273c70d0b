import type { TChatMessage, TRunEvent, TRunPlanView } from "@cohort/contracts";
import { describe, expect, it } from "vitest";
import { at, eventStream, lane, R, S } from "../../test-support/run-events";
import { applyRunEvents, EMPTY_CONVERSATION } from "../chat/run-state";
import { collectArtifacts, createArtifactCollector, locateArtifact } from "./collect-artifacts";

const ref = { model: "cologic", model_name: "CoLogic", provider: "simulator", simulated: true };

const page = (extra: string) =>
  `<!doctype html>\n<html>\n<head><title>Book club</title></head>\n<body>\n<h1>Book club</h1>${extra}\n</body>\n</html>`;
const fence = (lang: string, code: string) => `\`\`\`${lang}\n${code}\n\`\`\``;

const question: TChatMessage = {
  id: "m-user",
  session_id: S,
  role: "user",
  content: "Make an HTML page for our book club",
  run_id: R,
  created_at: at(0),
};
const answerText = `The page:\n\n${fence("html", page("\n<p>Meets Fridays</p>"))}\n\nAnd a chart:\n\n${fence("svg", "<svg/>")}`;
const answer: TChatMessage = {
  ...question,
  id: "m-answer",
  role: "assistant",
  content: answerText,
};

const plan: TRunPlanView = {
  mode: "automatic",
  rationale: "A page and a review.",
  notes: [],
  coordinator: ref,
  steps: [
    { id: "s1", role: "coder", task: "Write it", depends_on: [], phase: "agent", ...ref },
    { id: "s2", role: "critic", task: "Review", depends_on: ["s1"], phase: "review", ...ref },
  ],
};

const stream = eventStream();
const { ev } = stream;
const done = (
  callId: string,
  stepId: string,
  role: "coder" | "critic",
  kind: "agent" | "critic" | "revision",
) => stream.done(callId, stepId, role, "completed", kind);

function run(): TRunEvent[] {
  stream.seq = 0;
  return [
    ev("run.started", { message: question, mode: "automatic", coordinator_model: "coreason" }),
    ev("run.plan", { plan, credits: 0, repaired: false }),
    ev("agent.started", { ...lane("c1", "s1", "agent"), role: "coder", task: "Write it", ...ref }),
    ev("agent.delta", { ...lane("c1", "s1", "agent"), text: fence("html", page("")) }),
    done("c1", "s1", "coder", "agent"),
    ev("agent.started", { ...lane("c2", "s2", "critic"), role: "critic", task: "Review", ...ref }),
    ev("agent.delta", {
      ...lane("c2", "s2", "critic"),
      text: `Add the day:\n\n${fence("html", "<p>x</p>")}`,
    }),
    done("c2", "s2", "critic", "critic"),
    ev("agent.started", {
      ...lane("c3", "s1", "revision"),
      role: "coder",
      task: "Write it",
      ...ref,
    }),
    ev("agent.delta", {
      ...lane("c3", "s1", "revision"),
      text: fence("html", page("\n<p>Meets Fridays</p>")),
    }),
    done("c3", "s1", "coder", "revision"),
    ev("final.delta", { call_id: "c4", text: answerText }),
    ev("run.completed", {
      message: answer,
      critic_score: 8,
      total_credits: 0,
      input_tokens: 40,
      output_tokens: 40,
      duration_ms: 1_000,
      synthesis: { call_id: "c4", ...ref, credits: 0 },
    }),
  ];
}

describe("collectArtifacts", () => {
  it("makes the Coder's draft and revision v1 and v2 of one page; the answer quoting v2 adds none", () => {
    const state = applyRunEvents(EMPTY_CONVERSATION, run());
    const artifacts = collectArtifacts(state);
    expect(artifacts.map((a) => [a.key, a.title, a.versions.map((v) => v.source)])).toEqual([
      ["html-book-club", "Book club", ["Coder", "Coder (revision)"]],
      ["svg-1", "SVG image 1", ["Answer"]],
    ]);
    expect(artifacts[0]?.versions.map((v) => v.n)).toEqual([1, 2]);
    // The Critic quotes code; a review is not an artifact of the session.
    expect(artifacts.some((a) => a.versions.some((v) => v.code === "<p>x</p>"))).toBe(false);
    expect(locateArtifact(artifacts, page("\n<p>Meets Fridays</p>"))?.version.n).toBe(2);
  });

  it("as a collector, finds what collectArtifacts finds after every piece of a streamed run", () => {
    const collect = createArtifactCollector();
    // Every delta cut in pieces of 7 characters, as a stream brings them.
    const events = run().flatMap((event): TRunEvent[] =>
      event.type === "agent.delta" || event.type === "final.delta"
        ? (event.text.match(/[\s\S]{1,7}/g) ?? []).map((text) => ({ ...event, text }))
        : [event],
    );
    let state = EMPTY_CONVERSATION;
    let last = collect(state);
    for (const event of events) {
      state = applyRunEvents(state, [event]);
      const artifacts = collect(state);
      expect(artifacts).toEqual(collectArtifacts(state));
      // Nothing new: the same list, so what reads it is not drawn again.
      if (JSON.stringify(artifacts) === JSON.stringify(last)) expect(artifacts).toBe(last);
      last = artifacts;
    }
    expect(last.map((a) => a.key)).toEqual(["html-book-club", "svg-1"]);
  });
});
