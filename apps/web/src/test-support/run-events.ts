import type { TRunEvent } from "@cohort/contracts";

/**
 * One run's events, made the way the server numbers them, for the unit tests of the run
 * state and what is read from it (tool calls, artifacts). Test code only: nothing in the app
 * imports this folder.
 */
export const S = "session-1";
export const R = "run-1";

/** A timestamp `n` seconds into the run. */
export const at = (n: number) => `2025-01-01T00:00:${String(n).padStart(2, "0")}.000Z`;

type LaneKind = "agent" | "critic" | "revision";
type EventBody<T extends TRunEvent["type"]> = Omit<
  Extract<TRunEvent, { type: T }>,
  "type" | "seq" | "session_id" | "run_id" | "at"
>;

export const lane = (callId: string, stepId: string, kind: LaneKind = "agent") => ({
  call_id: callId,
  step_id: stepId,
  kind,
});

/**
 * Events of run R numbered in order: `ev` gives the next `seq` (stamped `at(seq)`); set
 * `seq` to go on from a given number.
 */
export function eventStream() {
  const stream = {
    /** The last `seq` given out. */
    seq: 0,
    ev<T extends TRunEvent["type"]>(type: T, body: EventBody<T>): TRunEvent {
      stream.seq += 1;
      const seq = stream.seq;
      return { type, seq, session_id: S, run_id: R, at: at(seq), ...body } as unknown as TRunEvent;
    },
    /** A lane's `agent.done`: 100 tokens in, 40 out, 0.25 credits. */
    done(
      callId: string,
      stepId: string,
      role: "strategist" | "coder" | "critic",
      status: "completed" | "failed" | "stopped" = "completed",
      kind: LaneKind = "agent",
    ): TRunEvent {
      return stream.ev("agent.done", {
        ...lane(callId, stepId, kind),
        role,
        status,
        provider: "openai",
        simulated: true,
        input_tokens: 100,
        output_tokens: 40,
        credits: 0.25,
        latency_ms: 900,
        ttft_ms: 200,
        error: null,
      });
    },
  };
  return stream;
}
