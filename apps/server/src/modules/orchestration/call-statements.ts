import { prepared } from "../../db/client";
import type { ComposedStatement } from "../credits/composed-statement";
import { RESERVE_CTES, RESERVE_PARAMS, RESERVED_RESULT } from "../credits/reserve-credits";
import { SETTLE_OPEN_CTES, SETTLE_PARAMS, SETTLED_RESULT } from "../credits/settle-hold";
import { sessionSpendUpdate } from "../sessions/record-session-spend";
import { endStepPart, type NewStep, openStepPart, type StepEnding } from "./run-store";

/**
 * A call's two statements, each writing three modules' rows at once (decision 019): the
 * credits module's parts (`RESERVE_CTES`, `SETTLE_OPEN_CTES`), the sessions module's spend
 * update and this module's step row, composed here and run by the credits module (which keeps
 * its rare paths and publishes the change). Each text is the same for every call, so it is
 * prepared once per PostgreSQL connection.
 */

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
