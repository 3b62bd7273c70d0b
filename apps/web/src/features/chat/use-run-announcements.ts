import { AGENT_ROLE_NAMES } from "@cohort/contracts";
import { useEffect, useRef, useState } from "react";
import type { ConversationState, RunView } from "./run-state";

interface Seen {
  plan: boolean;
  lanes: Map<string, string>;
  critic: boolean;
  status: string;
}

const ANSWER_PREVIEW_CHARS = 280;

/** Markdown to a sentence a screen reader can read out. */
function plainPreview(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?(```|$)/g, " (code) ")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#*_`>|~-]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > ANSWER_PREVIEW_CHARS
    ? `${text.slice(0, ANSWER_PREVIEW_CHARS).replace(/\s+\S*$/, "")}…`
    : text;
}

function describeChanges(run: RunView, seen: Seen | undefined): string[] {
  const out: string[] = [];
  if (run.plan && !seen?.plan) {
    const steps = run.plan.steps.length;
    out.push(`Plan ready: ${steps} ${steps === 1 ? "step" : "steps"}.`);
  }
  for (const lane of run.lanes) {
    const before = seen?.lanes.get(lane.callId);
    if (before === lane.status || lane.status === "running") continue;
    const who = `${AGENT_ROLE_NAMES[lane.role]}${lane.kind === "revision" ? " revision" : ""}`;
    if (lane.status === "completed") out.push(`${who} finished.`);
    else if (lane.status === "failed")
      out.push(`${who} failed. ${lane.error?.message ?? ""}`.trim());
  }
  if (run.critic && !seen?.critic) {
    out.push(
      run.critic.score === null
        ? "The critic gave no score."
        : `Critic scored ${run.critic.score} out of 10: ${run.critic.verdict === "approve" ? "approved" : "revision requested"}.`,
    );
  }
  if (seen && seen.status !== run.status) {
    if (run.status === "completed") {
      out.push(`Final answer ready. ${plainPreview(run.final?.text ?? "")}`.trim());
    } else if (run.status === "failed") {
      out.push(`The run failed. ${run.error?.message ?? ""}`.trim());
    } else if (run.status === "cancelled") {
      out.push("The run was stopped. Partial output is kept.");
    }
  }
  return out;
}

/**
 * What the polite live region says about runs as they go: the plan, each finished step,
 * the critic's verdict and the final answer — never the tokens themselves. Runs already
 * finished when the page loaded stay quiet.
 */
export function useRunAnnouncements(state: ConversationState): string {
  const seen = useRef(new Map<string, Seen>());
  const primed = useRef(false);
  const [message, setMessage] = useState("");

  useEffect(() => {
    const messages: string[] = [];
    for (const run of Object.values(state.runs)) {
      const before = seen.current.get(run.id);
      if (primed.current && !run.settled) messages.push(...describeChanges(run, before));
      seen.current.set(run.id, {
        plan: run.plan !== null,
        lanes: new Map(run.lanes.map((l) => [l.callId, l.status])),
        critic: run.critic !== null,
        status: run.status,
      });
    }
    if (Object.keys(state.runs).length > 0 || state.messages.length > 0) primed.current = true;
    if (messages.length > 0) setMessage(messages.join(" "));
  }, [state]);

  return message;
}
