import { TOOL_CALL_STATUS_LABELS, TOOL_RISK_LABELS } from "@cohort/contracts";
import { useId, useState } from "react";
import { cn } from "../../components/cn";
import { formatCount } from "../../lib/format/numbers";
import { formatDuration, formatRunCredits } from "../../lib/format/runs";
import { formatBytes } from "../documents/documents-format";
import type { ToolCallStatus, ToolCallView } from "./tool-views";

const STATUS_CLASS: Record<ToolCallStatus, string> = {
  running: "text-brand-700",
  awaiting_approval: "text-amber-800",
  completed: "text-emerald-700",
  failed: "text-red-700",
  denied: "text-red-700",
};

const ARGS_LINE_CHARS = 120;

/** JSON on one line, shortened: what the row shows before it is opened. */
function argsLine(args: unknown): string {
  const text = JSON.stringify(args) ?? "";
  return text.length > ARGS_LINE_CHARS ? `${text.slice(0, ARGS_LINE_CHARS - 1)}…` : text;
}

/** A share link leaves a call's arguments and output out (decisions 058, 076): null arguments. */
const WITHHELD = "Not shared.";

/**
 * One tool call in its lane: the tool, its server, its arguments, and once done how long it
 * took, how much it returned and what it cost; the output opens under it (a native button,
 * so the keyboard opens it as the mouse does).
 */
export function ToolCallRow({ call }: { call: ToolCallView }) {
  const [open, setOpen] = useState(false);
  // A model's arguments are always an object: null is a share's redaction.
  const withheld = call.args === null;
  const detailsId = useId();
  const facts = [
    call.serverName ? `on ${call.serverName}` : "built-in",
    TOOL_RISK_LABELS[call.risk],
    call.durationMs !== null ? formatDuration(call.durationMs) : null,
    call.outputChars !== null
      ? `${formatCount(call.outputChars, "character")}${call.truncated ? " (cut)" : ""}`
      : null,
    call.credits !== null ? (call.credits > 0 ? formatRunCredits(call.credits) : "free") : null,
    call.approvedBy ? `approved by ${call.approvedBy}` : null,
  ].filter((fact): fact is string => fact !== null);
  return (
    <li
      data-testid="tool-call"
      data-tool={call.tool}
      data-status={call.status}
      className="rounded-lg border border-ink-200 bg-ink-50/60 px-2.5 py-1.5 text-xs"
    >
      <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-0.5">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen((value) => !value)}
          className="min-w-0 rounded font-semibold text-ink-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <span aria-hidden="true">{open ? "▾ " : "▸ "}</span>
          {call.title} <span className="font-mono font-normal text-ink-600">{call.tool}</span>
        </button>
        <span
          className={cn("font-semibold", STATUS_CLASS[call.status])}
          data-testid="tool-call-status"
        >
          {TOOL_CALL_STATUS_LABELS[call.status]}
        </span>
      </div>
      <p className="mt-0.5 text-ink-600 tabular-nums" data-testid="tool-call-facts">
        {facts.join(" · ")}
      </p>
      <p
        className={cn("mt-0.5 truncate text-ink-700", withheld ? "italic" : "font-mono")}
        data-testid="tool-call-args"
      >
        {withheld ? "Arguments and output not shared." : argsLine(call.args)}
      </p>
      {call.error ? (
        <p className="mt-1 text-red-800" data-testid="tool-call-error">
          {call.error}
        </p>
      ) : null}
      {call.files && call.files.length > 0 ? (
        <ul
          aria-label="Files it wrote"
          className="mt-1 flex flex-wrap gap-1.5"
          data-testid="tool-call-files"
        >
          {call.files.map((file) => (
            <li key={file.url}>
              <a
                href={file.url}
                download
                className="inline-flex items-center gap-1 rounded-md border border-ink-200 bg-white px-1.5 py-0.5 font-mono text-ink-800 hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                {file.name}
                <span className="font-sans text-ink-600">({formatBytes(file.bytes)})</span>
                <span className="sr-only">, download</span>
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <div id={detailsId} hidden={!open} className="mt-1.5 space-y-1.5">
        <div>
          <p className="font-semibold text-ink-700">Arguments</p>
          {withheld ? (
            <p className="text-ink-600 italic">{WITHHELD}</p>
          ) : (
            <pre className="max-h-40 overflow-auto rounded bg-white p-1.5 font-mono whitespace-pre-wrap text-ink-800">
              {JSON.stringify(call.args, null, 2)}
            </pre>
          )}
        </div>
        <div>
          <p className="font-semibold text-ink-700">Output</p>
          {call.preview ? (
            <pre
              className="max-h-60 overflow-auto rounded bg-white p-1.5 font-mono whitespace-pre-wrap text-ink-800"
              data-testid="tool-call-output"
            >
              {call.preview}
            </pre>
          ) : (
            <p className="text-ink-600 italic">
              {call.status === "running" || call.status === "awaiting_approval"
                ? "Not yet."
                : withheld
                  ? WITHHELD
                  : "None."}
            </p>
          )}
        </div>
      </div>
    </li>
  );
}

export function ToolCallList({ calls }: { calls: readonly ToolCallView[] }) {
  if (calls.length === 0) return null;
  return (
    <ul aria-label="Tool calls" className="space-y-1.5 border-t border-ink-100 px-3 py-2">
      {calls.map((call) => (
        <ToolCallRow key={call.toolCallId} call={call} />
      ))}
    </ul>
  );
}
