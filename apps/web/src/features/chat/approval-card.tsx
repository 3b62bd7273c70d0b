import { APPROVAL_ARGS_MAX_CHARS, TOOL_RISK_LABELS, type TToolApproval } from "@cohort/contracts";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { inputClasses } from "../../components/form";
import { isApiError } from "../../lib/api/api-error";
import { formatTime } from "../../lib/format/dates";
import { decideApproval } from "./approvals-api";
import { APPROVAL_REASON_TEXT, type ApprovalView } from "./tool-views";

type Choice = "approve" | "deny" | "always";

/** The arguments as typed: an object, or why not. */
function parseArgs(text: string): { args: Record<string, unknown> } | { error: string } {
  if (text.length > APPROVAL_ARGS_MAX_CHARS) {
    return { error: `The arguments are too long (at most ${APPROVAL_ARGS_MAX_CHARS} characters).` };
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return { error: 'The arguments must be a JSON object, like {"title": "…"}.' };
    }
    return { args: value as Record<string, unknown> };
  } catch {
    return { error: "This is not valid JSON. Check the quotes, commas and braces." };
  }
}

function outcomeText(approval: ApprovalView): string {
  switch (approval.status) {
    case "approved":
      return `Approved by ${approval.byName ?? "a member"}${approval.always ? " (always allowed in this session)" : ""}.`;
    case "denied":
      return approval.note ?? `Denied by ${approval.byName ?? "a member"}.`;
    case "expired":
      return approval.note ?? "Nobody answered in time: the call was denied.";
    case "pending":
      return "";
  }
}

/**
 * A tool call waiting for a person (decision 059): the tool, its server, the arguments the
 * model chose (editable JSON), and Approve / Deny / Always allow this tool in this session.
 * Only its lane waits. Focus: a card that appears while nothing has focus takes it (its
 * heading); once decided here, focus moves to the outcome, since the buttons are gone.
 */
export function ApprovalCard({
  sessionId,
  approval,
  canDecide,
  onDecided,
}: {
  sessionId: string;
  approval: ApprovalView;
  /** Members and up decide; viewers see the card without its buttons. */
  canDecide: boolean;
  onDecided(approval: TToolApproval): void;
}) {
  const headingId = useId();
  const argsId = useId();
  const errorId = useId();
  const original = JSON.stringify(approval.args, null, 2);
  const [text, setText] = useState(original);
  const [argsError, setArgsError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<Choice | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const outcome = useRef<HTMLParagraphElement>(null);
  const decidedHere = useRef(false);
  const pending = approval.status === "pending";

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a card that appears waiting
  useEffect(() => {
    // An answered card a reload brings back asks nothing: it leaves focus where it is.
    if (!pending) return;
    const active = document.activeElement;
    if (!active || active === document.body) heading.current?.focus();
  }, []);

  useEffect(() => {
    if (!pending && decidedHere.current) outcome.current?.focus();
  }, [pending]);

  async function decide(choice: Choice) {
    setFailure(null);
    let args: Record<string, unknown> | undefined;
    if (choice !== "deny" && text !== original) {
      const parsed = parseArgs(text);
      if ("error" in parsed) {
        setArgsError(parsed.error);
        document.getElementById(argsId)?.focus();
        return;
      }
      args = parsed.args;
    }
    setArgsError(null);
    setBusy(choice);
    decidedHere.current = true;
    try {
      const { approval: decided } = await decideApproval(sessionId, approval.id, {
        decision: choice === "deny" ? "deny" : "approve",
        ...(args ? { args } : {}),
        ...(choice === "always" ? { always: true } : {}),
      });
      onDecided(decided);
    } catch (error) {
      const details = isApiError(error)
        ? (error.details as { approval?: TToolApproval })
        : undefined;
      if (details?.approval) onDecided(details.approval);
      else decidedHere.current = false;
      setFailure(isApiError(error) ? error.message : "The decision could not be sent. Try again.");
    } finally {
      setBusy(null);
    }
  }

  const view = approval;
  return (
    <section
      aria-labelledby={headingId}
      data-testid="approval-card"
      data-status={approval.status}
      data-approval-id={approval.id}
      className={cn(
        "mx-3 my-2 rounded-xl border px-3 py-2.5 text-sm",
        pending ? "border-amber-300 bg-amber-50" : "border-ink-200 bg-white",
      )}
    >
      <h5
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="font-semibold text-ink-950 outline-none"
      >
        {pending ? `Approve ${view.title}?` : view.title}
      </h5>
      <p className="mt-0.5 text-xs text-ink-700">
        <span className="font-mono">{view.tool}</span>
        {" · "}
        {view.serverName ? `MCP server ${view.serverName}` : "Built-in tool"}
        {" · "}
        {TOOL_RISK_LABELS[view.risk]}
      </p>
      {pending ? (
        <>
          <p className="mt-1.5 text-xs text-ink-800" data-testid="approval-reason">
            {APPROVAL_REASON_TEXT[view.reason]}
          </p>
          {approval.args === null ? (
            // A share that withholds tool input shows the waiting card without its arguments.
            <p className="mt-2 text-xs text-ink-700" data-testid="approval-args-withheld">
              Arguments not shared.
            </p>
          ) : (
            <div className="mt-2">
              <label htmlFor={argsId} className="block text-xs font-semibold text-ink-800">
                Arguments (JSON, editable)
              </label>
              <textarea
                id={argsId}
                value={text}
                onChange={(event) => setText(event.target.value)}
                rows={Math.min(10, Math.max(3, text.split("\n").length))}
                spellCheck={false}
                disabled={!canDecide || busy !== null}
                aria-invalid={argsError ? true : undefined}
                aria-describedby={argsError ? errorId : undefined}
                className={cn(inputClasses, "mt-1 font-mono text-xs leading-5")}
              />
              {argsError ? (
                <p id={errorId} className="mt-1 text-xs font-medium text-red-700">
                  {argsError}
                </p>
              ) : null}
            </div>
          )}
          {canDecide ? (
            <div className="mt-2 flex flex-wrap gap-2">
              <Button size="sm" onClick={() => decide("approve")} disabled={busy !== null}>
                {busy === "approve" ? "Approving…" : "Approve"}
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => decide("deny")}
                disabled={busy !== null}
              >
                {busy === "deny" ? "Denying…" : "Deny"}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                className="h-auto! min-h-9 py-1.5 text-left whitespace-normal!"
                onClick={() => decide("always")}
                disabled={busy !== null}
              >
                Always allow this tool in this session
              </Button>
            </div>
          ) : (
            <p className="mt-2 text-xs text-ink-700">
              A member of this workspace can approve or deny it.
            </p>
          )}
          <p className="mt-1.5 text-xs text-ink-700">
            Denied automatically if nobody answers by {formatTime(view.expiresAt)}.
          </p>
        </>
      ) : (
        <p
          ref={outcome}
          tabIndex={-1}
          className="mt-1 text-xs font-medium text-ink-800 outline-none"
          data-testid="approval-outcome"
        >
          {outcomeText(view)}
        </p>
      )}
      {!pending && view.decidedAt ? (
        <p className="mt-0.5 text-xs text-ink-700" data-testid="approval-decided-at">
          Answered at <time dateTime={view.decidedAt}>{formatTime(view.decidedAt)}</time>
        </p>
      ) : null}
      {failure ? (
        <p role="alert" className="mt-1.5 text-xs font-medium text-red-700">
          {failure}
        </p>
      ) : null}
    </section>
  );
}
