import { STEERING_MESSAGES } from "@cohort/contracts";
import type { RunView } from "./run-state";

/** Messages sent while the team worked (decision 069), and whether a step took them yet. */
export function QueuedMessages({ run }: { run: RunView }) {
  const queued = run.queued ?? [];
  if (queued.length === 0) return null;
  const stepName = (stepId: string) => {
    const step = run.plan?.steps.find((s) => s.id === stepId);
    return step ? `step ${stepId}` : stepId;
  };
  return (
    <section
      aria-label="Your messages to the team"
      className="grid gap-1.5"
      data-testid="queued-messages"
    >
      {queued.map((q) => (
        <div
          key={q.id}
          className="rounded-xl border border-ink-200 bg-white px-3 py-2 text-sm"
          data-testid="queued-message"
        >
          <p className="text-ink-900">{q.text}</p>
          <p className="mt-0.5 text-xs text-ink-600">
            {q.takenBefore === undefined
              ? STEERING_MESSAGES.queued
              : q.takenBefore === null
                ? "Taken into account in the answer."
                : `Taken into account from ${stepName(q.takenBefore)} on.`}
          </p>
        </div>
      ))}
    </section>
  );
}
