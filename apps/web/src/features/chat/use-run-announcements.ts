import { AGENT_ROLE_NAMES } from "@cohort/contracts";
import { useEffect, useRef, useState } from "react";
import { formatCount } from "../../lib/format/numbers";
import type { ConversationState, RunView } from "./run-state";

interface Seen {
  plan: boolean;
  lanes: Map<string, string>;
  critic: boolean;
  status: string;
  /** Approval requests by id, with the status last announced (decision 059). */
  approvals: Map<string, string>;
  /** An outline (decision 077): read in full later, it is old news, not a change. */
  outline: boolean;
  /** The run as last seen: the same object has nothing new to say (decision 077). */
  view: RunView;
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
    out.push(`Plan ready: ${formatCount(steps, "step")}.`);
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

/** A step's re-run on a run already ended (decision 031): each version done, and its score. */
function describeReruns(run: RunView, seen: Seen | undefined): string[] {
  const out: string[] = [];
  for (const lane of run.lanes) {
    if (lane.rerunOf === null) continue;
    const before = seen?.lanes.get(lane.callId);
    if (before !== lane.status && lane.status !== "running") {
      const who =
        lane.kind === "critic"
          ? `The Critic's review of version ${lane.version}`
          : `Version ${lane.version} of the ${AGENT_ROLE_NAMES[lane.role]}'s step`;
      out.push(
        lane.status === "completed"
          ? `${who} finished.`
          : lane.status === "stopped"
            ? `${who} was stopped.`
            : `${who} failed. ${lane.error?.message ?? ""}`.trim(),
      );
    }
    if (lane.criticScore !== null && seen?.lanes.get(scoreKey(lane.callId)) === undefined) {
      out.push(`Critic scored version ${lane.version} ${lane.criticScore} out of 10.`);
    }
  }
  for (const answer of run.answers) {
    const before = seen?.lanes.get(answer.callId);
    if (before !== answer.status && answer.status !== "running") {
      const who = `The answer re-written with version ${answer.version}`;
      out.push(
        answer.status === "completed"
          ? `${who} is ready.`
          : answer.status === "stopped"
            ? `${who} was stopped.`
            : `${who} failed. ${answer.error?.message ?? ""}`.trim(),
      );
    }
  }
  return out;
}

const scoreKey = (callId: string) => `${callId}:score`;

/**
 * Each approval request once when it comes and once when it is answered (a resumed lane's
 * repeat of the same request, and a reload's replay of it, stay quiet: same id, same status).
 */
function describeApprovals(run: RunView, seen: Seen | undefined): string[] {
  const out: string[] = [];
  for (const approval of run.approvals) {
    const before = seen?.approvals.get(approval.id);
    if (before === approval.status) continue;
    const lane = run.lanes.find((l) => l.callId === approval.callId);
    const who = lane ? `The ${AGENT_ROLE_NAMES[lane.role]}` : "An agent";
    if (approval.status === "pending") {
      out.push(
        `${who} asks to call ${approval.title} (${approval.tool}). Approve or deny it in its lane.`,
      );
    } else if (approval.status === "approved") {
      out.push(`${approval.title} approved${approval.byName ? ` by ${approval.byName}` : ""}.`);
    } else if (approval.status === "denied") {
      out.push(`${approval.title} denied${approval.byName ? ` by ${approval.byName}` : ""}.`);
    } else {
      out.push(`The request to call ${approval.title} expired: the call was denied.`);
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
      // Untouched runs keep their objects: a frame of streaming looks at its own run only.
      if (before?.view === run) continue;
      if (primed.current && !before?.outline) {
        messages.push(
          ...(run.settled ? describeReruns(run, before) : describeChanges(run, before)),
          ...describeApprovals(run, before),
        );
      }
      seen.current.set(run.id, {
        plan: run.plan !== null,
        lanes: new Map(
          run.lanes
            .flatMap((l) => [
              [l.callId, l.status] as [string, string],
              ...(l.criticScore === null
                ? []
                : [[scoreKey(l.callId), String(l.criticScore)] as [string, string]]),
            ])
            .concat(run.answers.map((a) => [a.callId, a.status] as [string, string])),
        ),
        critic: run.critic !== null,
        status: run.status,
        approvals: new Map(run.approvals.map((a) => [a.id, a.status])),
        outline: run.outline === true,
        view: run,
      });
    }
    if (Object.keys(state.runs).length > 0 || state.messages.length > 0) primed.current = true;
    if (messages.length > 0) setMessage(messages.join(" "));
  }, [state]);

  return message;
}
