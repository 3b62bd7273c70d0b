import { AGENT_ROLE_NAMES, type TRunEvent } from "@cohort/contracts";

/**
 * What a run's event means for a client waiting on `run_team`, as one progress line; null
 * for the events that are no milestone (streamed text, credits, a lane starting). The final
 * answer's first piece stands for "synthesis started"; its later pieces say nothing new.
 */
export function runProgressMessage(event: TRunEvent, answerStarted: boolean): string | null {
  switch (event.type) {
    case "run.plan": {
      const roles = event.plan.steps.map((step) => AGENT_ROLE_NAMES[step.role]);
      const count = event.plan.steps.length;
      return `Plan made: ${count} ${count === 1 ? "step" : "steps"} (${roles.join(", ")})`;
    }
    case "agent.done": {
      if (event.kind === "critic") return null;
      const name = AGENT_ROLE_NAMES[event.role];
      const verb = event.kind === "revision" ? "revised its draft" : "done";
      if (event.status === "completed") return `${name} ${verb}`;
      return `${name} ${event.status}${event.error ? `: ${event.error.message}` : ""}`;
    }
    case "critic.verdict":
      if (event.rerun_call_id) return null;
      return event.score === null
        ? "Critic reviewed the drafts (no score)"
        : `Critic scored the drafts ${event.score}/10 (${event.verdict === "revise" ? "revision requested" : "approved"})`;
    case "final.delta":
      return answerStarted || event.rerun_call_id ? null : "Writing the final answer";
    default:
      return null;
  }
}
