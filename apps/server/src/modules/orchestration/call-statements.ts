import type { TChatMessage } from "@cohort/contracts";
import { prepared, type Queryable } from "../../db/client";
import type { ComposedStatement } from "../credits/composed-statement";
import { RESERVE_CTES, RESERVE_PARAMS, RESERVED_RESULT } from "../credits/reserve-credits";
import { SETTLE_OPEN_CTES, SETTLE_PARAMS, SETTLED_RESULT } from "../credits/settle-hold";
import { addMessagePart, type NewMessage, storedMessage } from "../sessions/add-message";
import { sessionSpendUpdate } from "../sessions/record-session-spend";
import {
  endStepPart,
  finishRunPart,
  insertRunPart,
  type NewRun,
  type NewStep,
  openStepPart,
  type RunEnding,
  type StepEnding,
} from "./run-store";

/**
 * A run's first statement and each call's two, writing several modules' rows at once
 * (decisions 019 and 026): the credits module's parts (`RESERVE_CTES`, `SETTLE_OPEN_CTES`), the
 * sessions module's message and spend update and this module's run and step rows, composed
 * here and run by the credits module (which keeps its rare paths and publishes the change).
 * Each text is the same for every run and call, so it is prepared once per PostgreSQL
 * connection.
 */

/** What `POST /api/ai/chat` stores: the user's message and the run it starts. */
export interface RunStart {
  message: NewMessage & { id: string };
  run: NewRun;
}

/** What a run's first statement selects beside the credits' result. */
export interface StartedRun {
  message_created_at: Date | string;
}

/** The message, and the run once the message is there; with `from`, once per row of it. */
const startParts = (first: number, start: RunStart, from?: string) => {
  const message = addMessagePart(first, start.message, from);
  const run = insertRunPart(first + message.params.length, start.run, "message");
  return {
    ctes: `${message.ctes}, run AS (${run.sql})`,
    params: [...message.params, ...run.params],
  };
};

/** A start's values in `startParts` do not change the text: any start gives it. */
const SAMPLE_START: RunStart = {
  message: { id: "", sessionId: "", role: "user", content: "", runId: null },
  run: {
    id: "",
    sessionId: "",
    userId: "",
    messageId: "",
    mode: "automatic",
    coordinatorModel: "",
    instanceId: "",
  },
};

const STARTED = "(SELECT created_at FROM message) AS message_created_at";

const RESERVE_AND_START_RUN = prepared(`WITH ${RESERVE_CTES},
  ${startParts(RESERVE_PARAMS + 1, SAMPLE_START, "hold").ctes}
  SELECT ${RESERVED_RESULT}, ${STARTED} FROM hold, account`);

/**
 * The planning call's hold, the message and the run: all or nothing. A refused hold stores no
 * message (the request's 402 says why); a second active run in the session fails the whole
 * statement with a unique violation, holding nothing.
 */
export function reserveAndStartRun(start: RunStart): ComposedStatement {
  return {
    text: RESERVE_AND_START_RUN,
    params: startParts(RESERVE_PARAMS + 1, start, "hold").params,
  };
}

const RESERVE_AND_START_RUN_OF = prepared(`WITH ${RESERVE_CTES},
  run AS (${insertRunPart(RESERVE_PARAMS + 1, SAMPLE_START.run, "hold").sql})
  SELECT ${RESERVED_RESULT} FROM hold, account`);

/**
 * A new run of a message already stored (regenerate, decision 031) with its planning hold:
 * both or neither; a second active run in the session fails it on its unique index.
 */
export function reserveAndStartRunOf(run: NewRun): ComposedStatement {
  return {
    text: RESERVE_AND_START_RUN_OF,
    params: insertRunPart(RESERVE_PARAMS + 1, run, "hold").params,
  };
}

const START_RUN = prepared(`WITH ${startParts(1, SAMPLE_START).ctes} SELECT ${STARTED}`);

/** The message and the run when the planning call needs no hold: one statement as well. */
export async function startRunAlone(db: Queryable, start: RunStart): Promise<StartedRun> {
  const { rows } = await db.query<StartedRun>(START_RUN, startParts(1, start).params);
  return rows[0] as StartedRun;
}

/** A step row's values in `openStepPart` do not change the text: any step gives it. */
const SAMPLE_STEP: NewStep = {
  id: "",
  runId: "",
  kind: "agent",
  stepId: null,
  role: null,
  model: "",
  modelName: "",
  provider: "",
  simulated: false,
};

const openPart = (step: NewStep) =>
  openStepPart(RESERVE_PARAMS + 1, step, {
    rows: "hold",
    holdId: "hold.id",
    amount: "hold.amount",
  });

const RESERVE_AND_OPEN_STEP = prepared(`WITH ${RESERVE_CTES},
  step AS (${openPart(SAMPLE_STEP).sql})
  SELECT ${RESERVED_RESULT} FROM hold, account`);

/** The hold and its step row: both or neither (a refused hold writes no step). */
export function reserveAndOpenStep(step: NewStep): ComposedStatement {
  return { text: RESERVE_AND_OPEN_STEP, params: openPart(step).params };
}

const SESSION = SETTLE_PARAMS + 1;

const endPart = (callId: string, ending: StepEnding) =>
  endStepPart(SESSION + 1, callId, ending, { credits: "hold.charged", from: "hold" });

const SAMPLE_ENDING: StepEnding = {
  status: "completed",
  provider: null,
  simulated: null,
  keySource: null,
  credits: 0 as StepEnding["credits"],
  inputTokens: 0,
  outputTokens: 0,
  latencyMs: null,
  ttftMs: null,
  output: "",
  error: null,
};

const SETTLE_AND_END_STEP = prepared(`WITH ${SETTLE_OPEN_CTES},
  spend AS (${sessionSpendUpdate({ sessionId: `$${SESSION}`, amount: "hold.charged", from: "hold" })}),
  step AS (${endPart("", SAMPLE_ENDING).sql})
  SELECT ${SETTLED_RESULT}, (SELECT spent_credits FROM spend) AS session_spent
  FROM hold, account`);

/** What the settlement statement selects beside the credits' result. */
export interface SettledCall {
  /** The session's spend after the charge; null when nothing was charged. */
  session_spent: number | null;
}

/**
 * The settlement, the session's spend and the step's end: one statement, so the step row's
 * charge, the session's spend and the balance never disagree, even for a moment. The step's
 * charge is what the hold settled (`hold.charged`), never more than was held.
 */
export function settleAndEndStep(
  sessionId: string,
  callId: string,
  ending: StepEnding,
): ComposedStatement {
  return { text: SETTLE_AND_END_STEP, params: [sessionId, ...endPart(callId, ending).params] };
}

/** The answer's message id is the run's result: any values give the same text. */
const SAMPLE_ENDING_RUN: RunEnding = {
  outcome: { status: "completed" },
  totalCredits: 0 as RunEnding["totalCredits"],
  inputTokens: 0,
  outputTokens: 0,
};

const STORE_ANSWER_AND_FINISH = prepared(`WITH ${addMessagePart(1, SAMPLE_START.message).ctes},
  finished AS (${finishRunPart(7, "", SAMPLE_ENDING_RUN).sql} RETURNING id)
  SELECT ${STARTED}, EXISTS (SELECT 1 FROM finished) AS finished`);

/**
 * A completed run's answer and its end in one statement (decision 086), once its charges are
 * booked: the message is stored whatever happens to the run (as a separate write stored it
 * before); the run ends only if it is still active (false: another instance ended it).
 */
export async function storeAnswerAndFinish(
  db: Queryable,
  answer: NewMessage & { id: string },
  ending: RunEnding,
): Promise<{ message: TChatMessage; finished: boolean }> {
  const message = addMessagePart(1, answer);
  const finish = finishRunPart(7, answer.runId as string, {
    ...ending,
    resultMessageId: answer.id,
  });
  const { rows } = await db.query<StartedRun & { finished: boolean }>(STORE_ANSWER_AND_FINISH, [
    ...message.params,
    ...finish.params,
  ]);
  const row = rows[0] as StartedRun & { finished: boolean };
  return { message: storedMessage(answer, row.message_created_at), finished: row.finished };
}

/** What a completed run's end statement stores beside a call's settlement (decision 091). */
export interface RunEnd {
  answer: NewMessage & { id: string };
  /** The run's end; its `totalCredits` are the run's calls but the one being settled. */
  ending: RunEnding;
}

/** The step's end from `$first + 0`, then the answer, then the run's end. */
const endParts = (callId: string, step: StepEnding, end: RunEnd) => {
  const first = SETTLE_PARAMS + 1;
  const stepEnd = endStepPart(first, callId, step, { credits: "hold.charged", from: "hold" });
  const spend = "(SELECT hold.charged FROM hold)";
  const message = addMessagePart(first + stepEnd.params.length, end.answer, "hold", spend);
  const finish = finishRunPart(
    first + stepEnd.params.length + message.params.length,
    end.answer.runId as string,
    { ...end.ending, resultMessageId: end.answer.id },
    { credits: "hold.charged", from: "hold" },
  );
  return {
    ctes: `step AS (${stepEnd.sql}),
  ${message.ctes},
  finished AS (${finish.sql} RETURNING runs.id)`,
    params: [...stepEnd.params, ...message.params, ...finish.params],
  };
};

const SAMPLE_END: RunEnd = {
  answer: { ...SAMPLE_START.message, role: "assistant", runId: "" },
  ending: SAMPLE_ENDING_RUN,
};

const SETTLE_AND_FINISH_RUN = prepared(`WITH ${SETTLE_OPEN_CTES},
  ${endParts("", SAMPLE_ENDING, SAMPLE_END).ctes}
  SELECT ${SETTLED_RESULT},
    CASE WHEN hold.charged > 0 THEN (SELECT spent_credits FROM message_touch) END AS session_spent,
    ${STARTED}, EXISTS (SELECT 1 FROM finished) AS finished
  FROM hold, account`);

/** What the run's end statement selects beside the credits' result. */
export interface SettledEnd extends SettledCall, StartedRun {
  finished: boolean;
}

/**
 * The run's last call (the synthesis) settled in the run's end statement (decision 091): the
 * charge, the usage row, the step's end, the session's spend, the answer and the run's end,
 * with the run's total as the other calls' plus what the hold settled. One statement and one
 * round trip instead of two. Everything but the credits' parts reads `hold`, so when the hold
 * is not open (expired by the sweeper, closed already) none of it is written: the credits
 * module's rare path settles the hold and the caller stores the end on its own
 * (`storeAnswerAndFinish`), as before.
 */
export function settleAndFinishRun(
  callId: string,
  step: StepEnding,
  end: RunEnd,
): ComposedStatement {
  return { text: SETTLE_AND_FINISH_RUN, params: endParts(callId, step, end).params };
}
