import { AGENT_ROLE_NAMES, CRITIC_SCORE_BAR } from "@cohort/contracts";
import { useState } from "react";
import { cn } from "../../components/cn";
import { formatRunCredits } from "../../lib/format/runs";
import { CopyActions } from "./copy-actions";
import { ModelBadge } from "./model-badge";
import { AnswerFrame, FinalAnswer, type RunAnswerProps } from "./run-parts";
import type { AnswerVersionView, LaneView, RunView } from "./run-state";
import { SIDE_BY_SIDE, VersionTabs } from "./version-tabs";

/**
 * The run's answer and the answers written again with a step's re-run version (decision
 * 031): side by side (the default) or one at a time, as tabs, each with its cost and the
 * Critic's score of the drafts it was written from. The run's own answer is "Original".
 */

const ORIGINAL = "original";

function draftOf(run: RunView, answer: AnswerVersionView): LaneView | undefined {
  return run.lanes.find((l) => l.callId === answer.rerunCallId);
}

function answerTitle(run: RunView, answer: AnswerVersionView): string {
  const draft = draftOf(run, answer);
  const who = draft ? `the ${AGENT_ROLE_NAMES[draft.role]}'s` : "the step's";
  return `With ${who} v${answer.version}`;
}

function ScoreFact({ score, pending }: { score: number | null; pending: boolean }) {
  return (
    <span
      className={cn(
        "font-semibold",
        score !== null && score >= CRITIC_SCORE_BAR ? "text-emerald-700" : "text-amber-800",
        score === null && "font-normal text-ink-500",
      )}
    >
      {pending
        ? "Critic scoring…"
        : score === null
          ? "Drafts not scored"
          : `Drafts scored ${score}/10 by the Critic`}
    </span>
  );
}

function Summary({
  title,
  cost,
  score,
}: {
  title: string;
  cost: string;
  score: { score: number | null; pending: boolean };
}) {
  return (
    <div
      className="grid gap-0.5 px-1 text-xs text-ink-700 tabular-nums"
      data-testid="answer-summary"
    >
      <p className="truncate font-semibold text-ink-950">{title}</p>
      <p className="flex flex-wrap gap-x-3">
        <span data-testid="answer-cost">{cost}</span>
        <ScoreFact {...score} />
      </p>
    </div>
  );
}

function costOf(answer: AnswerVersionView): string {
  if (answer.status === "running") return "Writing…";
  if (answer.status === "stopped") {
    // What was shown before the stop is charged (decision 053).
    return answer.credits
      ? `Stopped · ${formatRunCredits(answer.credits)}`
      : "Stopped · not charged";
  }
  if (answer.status === "failed") return "Failed · not charged";
  return answer.credits === null ? "cost pending" : formatRunCredits(answer.credits);
}

function AnswerVersionCard({ run, answer }: { run: RunView; answer: AnswerVersionView }) {
  const streaming = answer.status === "running";
  return (
    <AnswerFrame
      label={`New answer, ${answerTitle(run, answer)}`}
      testId="answer-version-card"
      icon={
        <span className="flex size-7 items-center justify-center rounded-lg bg-brand-100 text-brand-700">
          <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4" fill="none">
            <path
              d="M13 8a5 5 0 1 1-1.5-3.6M13 2.5v2.5h-2.5"
              stroke="currentColor"
              strokeWidth="1.6"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </span>
      }
      title="New answer"
      model={
        <ModelBadge
          name={answer.ref.modelName}
          provider={answer.ref.provider}
          simulated={answer.ref.simulated}
        />
      }
      note={costOf(answer)}
      streaming={streaming}
      text={answer.text}
      body={
        answer.error && answer.status === "failed" ? (
          <p role="alert" className="mt-2 text-sm text-red-800">
            {answer.error.message}
          </p>
        ) : null
      }
    >
      {!streaming && answer.text ? (
        <div className="border-t border-brand-100 px-3 py-1.5">
          <CopyActions text={answer.text} what="the re-written answer" />
        </div>
      ) : null}
    </AnswerFrame>
  );
}

/** The final answer; with answer versions, the versions side by side or as tabs. */
export function AnswerVersions({ run, models, children }: RunAnswerProps) {
  const [shown, setShown] = useState<string>(SIDE_BY_SIDE);
  const original = (
    <FinalAnswer run={run} models={models}>
      {children}
    </FinalAnswer>
  );
  if (run.answers.length === 0 || !run.final) return original;

  const ids = [ORIGINAL, ...run.answers.map((a) => a.callId)];
  const single = ids.includes(shown) ? shown : null;
  const visible = single ? [single] : ids;
  return (
    <section
      aria-label={`Final answer, ${ids.length} versions`}
      data-testid="answer-versions"
      className="grid grid-cols-1 gap-2 rounded-2xl border border-brand-100 bg-brand-50/40 p-2"
    >
      <VersionTabs
        label="Answers"
        heading={`Final answer · ${ids.length} versions`}
        tabs={[
          { id: ORIGINAL, title: "Original" },
          ...run.answers.map((a, i) => ({
            id: a.callId,
            title: `${answerTitle(run, a)}${
              run.answers.filter((b) => b.rerunCallId === a.rerunCallId).length > 1
                ? ` (${run.answers.slice(0, i + 1).filter((b) => b.rerunCallId === a.rerunCallId).length})`
                : ""
            }`,
          })),
        ]}
        shown={single}
        onShow={setShown}
      />
      <div className={cn("grid grid-cols-1 gap-3", visible.length > 1 && "lg:grid-cols-2")}>
        {visible.map((id) => {
          const answer = run.answers.find((a) => a.callId === id);
          if (!answer) {
            return (
              <div
                key={ORIGINAL}
                className="grid min-w-0 grid-cols-1 content-start gap-1"
                data-testid="answer-version"
                data-version="original"
              >
                <Summary
                  title="Original · the run's answer"
                  cost={
                    run.final?.credits == null
                      ? "cost pending"
                      : formatRunCredits(run.final.credits)
                  }
                  score={{ score: run.critic?.score ?? null, pending: false }}
                />
                {original}
              </div>
            );
          }
          const draft = draftOf(run, answer);
          return (
            <div
              key={answer.callId}
              className="grid min-w-0 grid-cols-1 content-start gap-1"
              data-testid="answer-version"
              data-version={answer.version}
            >
              <Summary
                title={`${answerTitle(run, answer)}${draft ? ` (${draft.modelName}) in place of v1` : ""}`}
                cost={costOf(answer)}
                score={{
                  score: draft?.criticScore ?? null,
                  pending: run.lanes.some(
                    (l) =>
                      l.kind === "critic" &&
                      l.rerunOf === answer.rerunCallId &&
                      l.status === "running",
                  ),
                }}
              />
              <AnswerVersionCard run={run} answer={answer} />
            </div>
          );
        })}
      </div>
    </section>
  );
}
