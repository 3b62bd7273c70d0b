import { SIMULATED_NOT_CHARGED } from "@cohort/contracts";
import { cn } from "../../components/cn";
import { CodeBlockContext, Markdown } from "../../components/markdown/markdown";
import { ArtifactCodeBlock } from "../artifacts/artifact-block";
import { KeyRefusedLink } from "../chat/key-refused-link";
import { SimulatedBadge } from "./simulated-badge";
import type { Turn } from "./use-cochat";

function TypingDots() {
  return (
    <span className="inline-flex items-center gap-1 py-2" aria-hidden="true">
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="size-1.5 animate-bounce rounded-full bg-ink-400"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </span>
  );
}

function AssistantTurn({ turn }: { turn: Turn }) {
  return (
    <li className="flex min-w-0 gap-3" data-testid="cochat-answer" data-status={turn.status}>
      <span
        aria-hidden="true"
        className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-brand-700 text-xs font-bold text-white shadow-sm"
      >
        Co
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-1.5 text-xs font-semibold text-ink-700">
          <span className="sr-only">Answer from </span>
          {turn.modelName ?? "CoChat"}
          {turn.simulated ? <SimulatedBadge /> : null}
          {turn.simulated && turn.status === "complete" ? (
            // CoChat Unlimited spends no credits; a simulated answer says so beside it too.
            <span className="font-normal text-ink-500" data-testid="cochat-not-charged">
              {SIMULATED_NOT_CHARGED}
            </span>
          ) : null}
        </p>
        <div
          data-testid="cochat-answer-body"
          className="mt-1 rounded-2xl rounded-tl-md border border-ink-200 bg-white px-4 py-3 shadow-xs"
        >
          {turn.content ? (
            // Code a browser can show gets its Preview tab here too (decision 063).
            <CodeBlockContext.Provider value={ArtifactCodeBlock}>
              <Markdown text={turn.content} />
            </CodeBlockContext.Provider>
          ) : turn.status === "streaming" ? (
            <TypingDots />
          ) : null}
          {turn.status === "streaming" && turn.content ? (
            <span
              aria-hidden="true"
              className="ml-0.5 inline-block h-4 w-1.5 animate-pulse rounded-sm bg-brand-500 align-text-bottom"
            />
          ) : null}
          {turn.status === "stopped" ? (
            <p className="mt-2 text-xs font-medium text-ink-500">
              {turn.content
                ? "Stopped. The answer above is incomplete."
                : "Stopped before an answer arrived."}
            </p>
          ) : null}
          {turn.status === "failed" ? (
            <p
              className={cn(
                "rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800",
                turn.content ? "mt-3" : undefined,
              )}
            >
              {turn.error ?? "The answer failed. Please try again."}
              <KeyRefusedLink code={turn.errorCode} className="block text-red-900" />
            </p>
          ) : null}
        </div>
      </div>
    </li>
  );
}

function UserTurn({ turn }: { turn: Turn }) {
  return (
    <li className="flex justify-end" data-testid="cochat-question">
      <div className="max-w-[85%] rounded-2xl rounded-tr-md bg-brand-600 px-4 py-2.5 text-[15px] leading-6 whitespace-pre-wrap text-white shadow-sm">
        <span className="sr-only">You: </span>
        {turn.content}
      </div>
    </li>
  );
}

/** The conversation: the user's messages on the right, CoChat's Markdown answers on the left. */
export function MessageList({ turns, busy }: { turns: readonly Turn[]; busy: boolean }) {
  return (
    <ol aria-label="Conversation" aria-busy={busy} className="flex flex-col gap-6">
      {turns.map((turn) =>
        turn.role === "user" ? (
          <UserTurn key={turn.key} turn={turn} />
        ) : (
          <AssistantTurn key={turn.key} turn={turn} />
        ),
      )}
    </ol>
  );
}
