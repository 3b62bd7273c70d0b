import { AGENT_ROLE_NAMES, CRITIC_SCORE_BAR, isRunActive } from "@cohort/contracts";
import { cn } from "../../components/cn";
import { Markdown } from "../../components/markdown/markdown";
import { formatRunCredits } from "../../lib/format/runs";
import { rerunStepsOf } from "./branch-timeline";
import type { LaneView, RunView } from "./run-state";

/**
 * A fork beside the run it forked (decision 070): per plan step, which role, model, cost
 * and Critic score each had — the fork's kept steps marked as not charged — then the totals
 * and the two answers side by side.
 */
export function ForkComparison({ original, fork }: { original: RunView; fork: RunView }) {
  if (!fork.fork) return null;
  const again = rerunStepsOf(fork.fork, original);
  const steps = original.plan?.steps ?? [];
  const laneOf = (run: RunView, stepId: string, review: boolean): LaneView | undefined =>
    run.lanes.find(
      (l) =>
        l.rerunOf === null &&
        l.version === 1 &&
        (review ? l.kind === "critic" : l.kind === "agent" && l.stepId === stepId),
    );
  const going = isRunActive(fork.status);
  return (
    <section
      aria-label="The fork beside the original"
      data-testid="fork-comparison"
      className="grid gap-3 rounded-2xl border border-brand-200 bg-white p-3 sm:p-4"
    >
      <h3 className="text-sm font-bold text-ink-950">Fork compared with the original</h3>
      <div className="overflow-x-auto" data-testid="comparison-table">
        <table className="w-full min-w-[36rem] border-collapse text-left text-xs tabular-nums">
          <caption className="sr-only">
            Per step: the model, cost and Critic score of the original and of the fork
          </caption>
          <thead>
            <tr className="border-b border-ink-200 text-ink-600">
              <th scope="col" className="py-1.5 pr-2 font-semibold">
                Step
              </th>
              <th scope="col" className="px-2 py-1.5 font-semibold">
                Original
              </th>
              <th scope="col" className="px-2 py-1.5 font-semibold">
                Fork
              </th>
            </tr>
          </thead>
          <tbody>
            {steps.map((step) => {
              const review = step.phase === "review";
              const before = laneOf(original, step.id, review);
              const after = laneOf(fork, step.id, review);
              const kept = !review && !again.has(step.id);
              return (
                <tr
                  key={step.id}
                  className="border-b border-ink-100 align-top"
                  data-testid="comparison-row"
                >
                  <th scope="row" className="py-1.5 pr-2 font-semibold text-ink-900">
                    {AGENT_ROLE_NAMES[step.role]}
                    <span className="block max-w-56 truncate font-normal text-ink-600">
                      {step.task}
                    </span>
                  </th>
                  <StepCell lane={before} score={original.critic?.draftScores[step.id] ?? null} />
                  <StepCell
                    lane={after}
                    score={fork.critic?.draftScores[step.id] ?? null}
                    kept={kept}
                    going={going}
                  />
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr className="text-ink-900">
              <th scope="row" className="py-1.5 pr-2 font-semibold">
                Total · Critic
              </th>
              <td className="px-2 py-1.5" data-testid="comparison-original-total">
                {formatRunCredits(original.totalCredits)} ·{" "}
                <Score score={original.critic?.score ?? null} />
              </td>
              <td className="px-2 py-1.5" data-testid="comparison-fork-total">
                {going ? "running…" : formatRunCredits(fork.totalCredits)} ·{" "}
                <Score score={fork.critic?.score ?? null} />
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        {[
          { title: "Original answer", run: original },
          { title: "Fork's answer", run: fork },
        ].map(({ title, run }) => (
          <article
            key={run.id}
            className="min-w-0 rounded-xl border border-ink-200 p-3"
            aria-label={title}
          >
            <h4 className="mb-1 text-xs font-bold text-ink-700">{title}</h4>
            {run.final?.text ? (
              <Markdown text={run.final.text} size="sm" className="text-[13px] leading-[1.4rem]" />
            ) : (
              <p className="text-xs text-ink-500">
                {isRunActive(run.status) ? "Being written…" : "No answer."}
              </p>
            )}
          </article>
        ))}
      </div>
    </section>
  );
}

function Score({ score }: { score: number | null }) {
  if (score === null) return <span className="text-ink-500">no score</span>;
  return (
    <span
      className={cn(
        "font-semibold",
        score >= CRITIC_SCORE_BAR ? "text-emerald-700" : "text-amber-800",
      )}
    >
      {score}/10
    </span>
  );
}

function StepCell({
  lane,
  score,
  kept = false,
  going = false,
}: {
  lane: LaneView | undefined;
  score: number | null;
  kept?: boolean;
  going?: boolean;
}) {
  if (!lane) {
    return <td className="px-2 py-1.5 text-ink-500">{going ? "waiting…" : "—"}</td>;
  }
  return (
    <td className="px-2 py-1.5 text-ink-800">
      <span className="block font-semibold text-ink-950">{lane.modelName}</span>
      <span className="block">
        {kept ? (
          <span data-testid="kept-step">kept · not charged</span>
        ) : lane.credits === null ? (
          "running…"
        ) : (
          formatRunCredits(lane.credits)
        )}
        {" · "}
        <Score score={score} />
      </span>
    </td>
  );
}
