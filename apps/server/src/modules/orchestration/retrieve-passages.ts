import {
  STEP_PASSAGES_MAX,
  type TPassage,
  type TPlannedStep,
  type TRunPassage,
  type TRunPlanView,
} from "@cohort/contracts";
import { fitPassages } from "./fit-to-context";
import { insertRunPassages } from "./material-store";
import { AGENT_MAX_OUTPUT_TOKENS, passageBudget } from "./prompts";
import { type RunContext, type RunPassages, track } from "./run-context";

/**
 * Retrieval for the plan's sub-tasks (decision 037): each agent step searches the documents
 * the plan names for it with its sub-task (and the user's request), keeps the passages that
 * fit its model's context window, best first. The passages are numbered once per run, in
 * plan order, so the same chunk has the same [n] in every step and in the answer. A search
 * that fails leaves that step without passages; the run goes on.
 */
export async function retrievePassages(ctx: RunContext, plan: TRunPlanView): Promise<void> {
  const search = ctx.deps.documents;
  const steps = plan.steps.filter((s) => s.phase === "agent" && (s.document_ids?.length ?? 0) > 0);
  if (!search || steps.length === 0) return;
  const found = await Promise.all(steps.map((step) => searchFor(ctx, step)));
  const added: TRunPassage[] = [];
  steps.forEach((step, i) => {
    const budget = passageBudget(ctx, step.model, AGENT_MAX_OUTPUT_TOKENS);
    const fitted = fitPassages(found[i] ?? [], budget);
    ctx.material.stepPassages.set(
      step.id,
      fitted.map((p) => numberPassage(ctx.material.passages, p, added)),
    );
  });
  if (added.length > 0) track(ctx, () => insertRunPassages(ctx.deps.db, ctx.runId, added));
}

/**
 * The run's number for a found passage: the one it already has, else the next, the passage
 * then pushed onto `added` (stored by the caller in one statement).
 */
export function numberPassage(
  passages: RunPassages,
  p: TPassage,
  added: TRunPassage[],
): TRunPassage {
  const known = passages.get(p.chunk_id);
  if (known) return known;
  const passage: TRunPassage = {
    n: passages.size + 1,
    chunk_id: p.chunk_id,
    document_id: p.document_id,
    document_name: p.document_name,
    page: p.page,
    section: p.section,
    text: p.text,
  };
  passages.set(p.chunk_id, passage);
  added.push(passage);
  return passage;
}

/**
 * The run's number for a source a tool found (a page, a search result; decision 067): the
 * one its address already has, else the next after every passage and source so far, so
 * documents and the web share one numbering and `[n]` means one thing in the whole run.
 */
export function numberToolSource(
  passages: RunPassages,
  source: { title: string; url: string | null; snippet?: string },
  added: TRunPassage[],
): TRunPassage {
  const key = source.url ? `url:${source.url}` : `source:${source.title}`;
  const known = passages.get(key);
  if (known) return known;
  const passage: TRunPassage = {
    n: passages.size + 1,
    chunk_id: key,
    document_id: "",
    document_name: source.title,
    page: null,
    section: null,
    text: source.snippet ?? "",
    ...(source.url ? { url: source.url } : {}),
  };
  passages.set(key, passage);
  added.push(passage);
  return passage;
}

async function searchFor(ctx: RunContext, step: TPlannedStep): Promise<TPassage[]> {
  const documentIds = step.document_ids ?? [];
  const search = ctx.deps.documents;
  if (!search) return [];
  try {
    return await search.search({
      workspaceId: ctx.workspaceId,
      query: anyWordOf(`${step.task}\n${ctx.message.content}`),
      documentIds,
      limit: STEP_PASSAGES_MAX,
    });
  } catch (error) {
    ctx.deps.log.warn({ err: error, runId: ctx.runId, stepId: step.id }, "passage search failed");
    return [];
  }
}

/** Words the search ignores anyway, and the ones its syntax reads as operators. */
const SKIPPED = new Set(["and", "or", "not", "the", "for", "with", "from", "that", "this", "into"]);
const QUERY_WORDS_MAX = 32;

/**
 * The sub-task as a search that matches any of its words (the documents' web-search syntax:
 * "a or b"), ranked by how many match and how close: a sub-task never matches word for word.
 */
export function anyWordOf(text: string): string {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  return [...new Set(words.filter((w) => !SKIPPED.has(w)))].slice(0, QUERY_WORDS_MAX).join(" or ");
}
