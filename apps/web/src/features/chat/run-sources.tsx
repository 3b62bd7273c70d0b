import type { TPlannedStep, TRunPassage, TRunPlanView } from "@cohort/contracts";
import { createContext, type ReactNode, useContext, useMemo } from "react";
import { Link } from "react-router";
import { cn } from "../../components/cn";
import { ChevronRightIcon } from "../../components/icons";
import type { Citations } from "../../components/markdown/cited-text";
import { documentViewerPath } from "../documents/documents-api";
import { useCurrentWorkspace } from "../workspaces/current-workspace";
import { memoryOwnerLabel } from "../workspaces/workspace-labels";
import type { LaneView, RunView } from "./run-state";
import { ChatActionsContext } from "./step-versions";

/**
 * What a run worked from (decision 037): the documents its plan names per sub-task, the
 * passages each lane was given and cited, the citations in its text, the memories it used.
 */

/** Where a passage sits in its document: "page 3", "Pricing", "page 3 · Pricing". */
export function passagePlace(passage: Pick<TRunPassage, "page" | "section">): string {
  return [passage.page === null ? null : `page ${passage.page}`, passage.section]
    .filter(Boolean)
    .join(" · ");
}

function passageTitle(passage: TRunPassage): string {
  const place = passagePlace(passage);
  return place ? `${passage.document_name}, ${place}` : passage.document_name;
}

/** The run's passages by number, as links to the viewer at each passage. */
export function citationsOf(passages: Readonly<Record<number, TRunPassage>>): Citations {
  return new Map(
    Object.values(passages).map((p) => [
      p.n,
      // A page or search result a tool found links to its address (decision 067).
      p.url
        ? { href: p.url, title: p.document_name }
        : { href: documentViewerPath(p.document_id, p.chunk_id), title: passageTitle(p) },
    ]),
  );
}

const RunSourcesContext = createContext<{
  passages: Readonly<Record<number, TRunPassage>>;
  citations: Citations;
} | null>(null);

/** Gives the run's lanes and answers its passages, so their `[n]` become links. */
export function RunSources({ run, children }: { run: RunView; children: ReactNode }) {
  const value = useMemo(
    () => ({ passages: run.passages, citations: citationsOf(run.passages) }),
    [run.passages],
  );
  return <RunSourcesContext.Provider value={value}>{children}</RunSourcesContext.Provider>;
}

/** The citations of the run being shown; undefined outside a run or when it used none. */
export function useRunCitations(): Citations | undefined {
  const sources = useContext(RunSourcesContext);
  return sources && sources.citations.size > 0 ? sources.citations : undefined;
}

function DocumentGlyph({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className={cn("size-3.5", className)} fill="none">
      <path
        d="M4 1.75h5.5L12.5 4.75v9.5H4z"
        stroke="currentColor"
        strokeWidth="1.4"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * A plan step's chips (its documents, its tools): a wrapping list, one tinted chip a name.
 * `tint` is the chip's colours and type; nothing is drawn for no items.
 */
function StepChips({
  label,
  testId,
  tint,
  items,
}: {
  label: string;
  testId: string;
  tint: string;
  items: readonly { key: string; content: ReactNode }[];
}) {
  if (items.length === 0) return null;
  return (
    <ul className="flex flex-wrap items-center gap-1" aria-label={label}>
      {items.map((item) => (
        <li
          key={item.key}
          data-testid={testId}
          className={cn(
            "inline-flex max-w-56 items-center rounded-md px-1.5 py-0.5 text-xs ring-1 ring-inset",
            tint,
          )}
        >
          {item.content}
        </li>
      ))}
    </ul>
  );
}

/** The attached documents a plan step searches, by name. */
export function StepDocuments({ plan, step }: { plan: TRunPlanView; step: TPlannedStep }) {
  const names = new Map((plan.documents ?? []).map((d) => [d.id, d.name]));
  return (
    <StepChips
      label="Documents this step uses"
      testId="step-document"
      tint="gap-1 bg-sky-50 font-medium text-sky-900 ring-sky-200"
      items={(step.document_ids ?? []).map((id) => ({
        key: id,
        content: (
          <>
            <DocumentGlyph className="shrink-0" />
            <span className="truncate">{names.get(id) ?? "A detached document"}</span>
          </>
        ),
      }))}
    />
  );
}

/** The tools the coordinator expects a plan step to use (decision 067), by name. */
export function StepTools({ step }: { step: TPlannedStep }) {
  return (
    <StepChips
      label="Tools this step expects to use"
      testId="step-tool"
      tint="bg-amber-50 font-mono text-amber-900 ring-amber-200"
      items={(step.tools ?? []).map((name) => ({
        key: name,
        content: <span className="truncate">{name}</span>,
      }))}
    />
  );
}

const SNIPPET_CHARS = 280;

function snippetOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS).trimEnd()}…` : flat;
}

/** The passages a lane was given, folded away; the ones its text cites are marked. */
export function LanePassages({ lane }: { lane: LaneView }) {
  const sources = useContext(RunSourcesContext);
  const given = lane.passages
    .map((n) => sources?.passages[n])
    .filter((p): p is TRunPassage => p !== undefined);
  if (given.length === 0) return null;
  const cited = new Set(lane.cited);
  const citedCount = given.filter((p) => cited.has(p.n)).length;
  return (
    <details className="group border-t border-ink-100 text-xs" data-testid="lane-passages">
      <summary className="flex cursor-pointer list-none items-center gap-1.5 px-3 py-1.5 font-semibold text-ink-700 hover:bg-ink-50 [&::-webkit-details-marker]:hidden">
        <ChevronRightIcon className="size-3.5 text-ink-500 transition-transform group-open:rotate-90" />
        <DocumentGlyph className="text-sky-700" />
        Passages · {given.length} given
        {lane.status === "running" ? null : (
          <span className="font-normal text-ink-500">· {citedCount} cited</span>
        )}
      </summary>
      <ol className="grid grid-cols-1 gap-1.5 px-3 pb-2.5">
        {given.map((passage) => {
          const used = cited.has(passage.n);
          const place = passagePlace(passage);
          return (
            <li
              key={passage.n}
              data-testid="lane-passage"
              data-n={passage.n}
              data-cited={used}
              className={cn(
                "rounded-lg border px-2.5 py-1.5",
                used ? "border-sky-200 bg-sky-50/70" : "border-ink-100 bg-white",
              )}
            >
              <p className="flex flex-wrap items-baseline gap-x-1.5">
                <span className="font-semibold text-ink-500 tabular-nums">[{passage.n}]</span>
                <Link
                  to={documentViewerPath(passage.document_id, passage.chunk_id)}
                  className="min-w-0 truncate font-semibold text-brand-700 hover:underline"
                >
                  {passage.document_name}
                </Link>
                {place ? <span className="text-ink-500">{place}</span> : null}
                {used ? (
                  <span className="ml-auto rounded bg-sky-100 px-1 py-px text-[11px] font-semibold text-sky-900">
                    Cited
                  </span>
                ) : null}
              </p>
              <p className="mt-0.5 leading-5 text-ink-600">{snippetOf(passage.text)}</p>
            </li>
          );
        })}
      </ol>
    </details>
  );
}

/** The approved memories the run put into its plan's context, and whose memory they are. */
export function UsedMemories({ run }: { run: RunView }) {
  const session = useContext(ChatActionsContext)?.session;
  const { workspace, workspaces } = useCurrentWorkspace();
  const owner = session
    ? (workspaces.find((w) => w.id === session.workspace_id) ?? workspace)
    : workspace;
  if (run.memories.length === 0) return null;
  return (
    <section
      aria-label="Used memories"
      data-testid="used-memories"
      className="rounded-2xl border border-violet-200 bg-violet-50/50 px-3 py-2.5"
    >
      <h3 className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-violet-900 uppercase">
        <svg viewBox="0 0 16 16" aria-hidden="true" className="size-3.5" fill="none">
          <path
            d="M8 2.5a4 4 0 00-2.5 7.1V11h5V9.6A4 4 0 008 2.5zM6 13.5h4"
            stroke="currentColor"
            strokeWidth="1.4"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        Used memories
      </h3>
      <ul className="mt-1.5 grid grid-cols-1 gap-1 text-sm text-ink-800">
        {run.memories.map((memory) => (
          <li key={memory.id} data-testid="used-memory" className="flex gap-2">
            <span
              aria-hidden="true"
              className="mt-2 size-1.5 shrink-0 rounded-full bg-violet-400"
            />
            {memory.text}
          </li>
        ))}
      </ul>
      <p className="mt-1.5 text-xs text-ink-500" data-testid="used-memories-source">
        From the approved memories of {memoryOwnerLabel(owner)}.{" "}
        <Link to="/settings#memory" className="font-medium text-violet-800 hover:underline">
          Manage memory
        </Link>
      </p>
    </section>
  );
}
