/**
 * Reads the engine's prompts (orchestration/prompts.ts) back into their parts, so the
 * simulator can tell which call it answers and work from what that call was given: the
 * user's own request, the step's task, the drafts to build on, review or merge, and the
 * Critic's review. A prompt without the engine's sections (CoChat, the plan call) is all
 * request.
 */
export interface QuotedDraft {
  stepId: string;
  /** The role's display name as quoted ("Coder"). */
  role: string;
  text: string;
}

/** A numbered passage from the user's documents (orchestration/prompts.ts passagesBlock). */
export interface QuotedPassage {
  n: number;
  /** "Name — page 2 — Section" as quoted. */
  source: string;
  text: string;
}

export interface PromptParts {
  /** What the user wrote, without the engine's sections. */
  request: string;
  /** The step's own task, on agent, critic and revision calls. */
  task: string | null;
  /** Earlier steps' results (agent), the drafts to review (critic) or to merge (synthesis). */
  drafts: QuotedDraft[];
  /** The Critic's review, on revision and synthesis calls. */
  review: string | null;
  /** The agent's own first draft, on a revision call. */
  firstDraft: string | null;
  /** On a revision call, the step whose draft the Critic's fixes are for. */
  revisedStepId: string | null;
  /** The user's earlier messages in the conversation, oldest first. */
  earlier: string[];
  /** Passages from the user's documents the call was given to cite as [n]. */
  passages: QuotedPassage[];
  /** The attached documents a plan call may name, as "d1" refs with their names. */
  documents: { ref: string; name: string }[];
  /** The tools a plan call may name per step, with the roles that may use each (decision 067). */
  tools: { name: string; roles: string[] }[];
}

const TASK = "\n\n---\nYour task:\n";
const TEAM_DRAFTS = "\n\n---\nThe team's drafts:\n\n";
const EARLIER_RESULTS = "\n\nWork from these results of earlier steps:\n\n";
const TO_REVIEW = "\n\nThe drafts to review:\n\n";
const FIRST_DRAFT = "\n\nYour first draft:\n\n";
const REVIEW_OF_DRAFTS = "\n\nThe Critic's review of the drafts:\n\n";
const REVISE = "\n\nWrite the revised draft:";
const REVIEW = "\n\nThe Critic's review:\n\n";
const MISSING =
  /\n\n\(The [A-Z][a-z]+'s step \S+ failed, so its result is missing; do without it\.\)/g;
const DRAFT_HEADING = /^### Draft (\S+) \(([^)\n]+)\)[ \t]*$/gm;

/** "### Draft s1 (Coder)" sections, each up to the next one. */
export function draftsIn(block: string): QuotedDraft[] {
  const headings = [...block.matchAll(DRAFT_HEADING)];
  return headings.map((heading, i) => {
    const start = heading.index + heading[0].length;
    const end = headings[i + 1]?.index ?? block.length;
    return {
      stepId: heading[1] as string,
      role: heading[2] as string,
      text: block.slice(start, end).trim(),
    };
  });
}

function upTo(body: string, ends: readonly string[]): string {
  const stops = ends.map((e) => body.indexOf(e)).filter((i) => i >= 0);
  return body.slice(0, stops.length > 0 ? Math.min(...stops) : body.length).trim();
}

function between(text: string, start: string, ends: readonly string[]): string | null {
  const from = text.indexOf(start);
  return from < 0 ? null : upTo(text.slice(from + start.length), ends);
}

/** The engine's data blocks ("---", a rule line, then <tag> … </tag>), always last. */
const DATA_BLOCK = /\n\n---\n[^\n]*\n<(passages|documents|memories|tools)>\n([\s\S]*?)\n<\/\1>/g;
const PASSAGE_HEADING = /^\[(\d+)\] ([^\n]*)$/gm;

function passagesIn(block: string): QuotedPassage[] {
  const headings = [...block.matchAll(PASSAGE_HEADING)];
  return headings.map((heading, i) => ({
    n: Number(heading[1]),
    source: heading[2] as string,
    text: block
      .slice(heading.index + heading[0].length, headings[i + 1]?.index ?? block.length)
      .trim(),
  }));
}

/** "- read_url [strategist, coder]: …" lines of the plan call's tools block. */
function toolsIn(block: string): { name: string; roles: string[] }[] {
  return [...block.matchAll(/^- ([a-zA-Z0-9_-]+) \[([a-z, ]*)\]:/gm)].map((m) => ({
    name: m[1] as string,
    roles: (m[2] as string)
      .split(",")
      .map((r) => r.trim())
      .filter(Boolean),
  }));
}

function documentsIn(block: string): { ref: string; name: string }[] {
  return [...block.matchAll(/^(d\d+): (.*)$/gm)].map((m) => ({
    ref: m[1] as string,
    name: m[2] as string,
  }));
}

/** Splits the call's last user turn; `earlier` are the user turns before it. */
export function readPrompt(whole: string, earlier: readonly string[] = []): PromptParts {
  let passages: QuotedPassage[] = [];
  let documents: { ref: string; name: string }[] = [];
  let tools: { name: string; roles: string[] }[] = [];
  const turn = whole.replace(DATA_BLOCK, (_block, tag: string, body: string) => {
    if (tag === "passages") passages = passagesIn(body);
    if (tag === "documents") documents = documentsIn(body);
    if (tag === "tools") tools = toolsIn(body);
    return "";
  });
  const parts: PromptParts = {
    passages,
    documents,
    tools,
    request: turn.trim(),
    task: null,
    drafts: [],
    review: null,
    firstDraft: null,
    revisedStepId: null,
    earlier: earlier.map((m) => readPrompt(m).request).filter((m) => m.length > 0),
  };
  const task = turn.indexOf(TASK);
  const team = turn.indexOf(TEAM_DRAFTS);
  if (task >= 0 && (team < 0 || task < team)) {
    parts.request = turn.slice(0, task).trim();
    const rest = turn.slice(task + TASK.length).replace(MISSING, "");
    parts.task = upTo(rest, [EARLIER_RESULTS, TO_REVIEW, FIRST_DRAFT]);
    const drafts =
      between(rest, EARLIER_RESULTS, [FIRST_DRAFT]) ?? between(rest, TO_REVIEW, [FIRST_DRAFT]);
    if (drafts) parts.drafts = draftsIn(drafts);
    parts.firstDraft = between(rest, FIRST_DRAFT, [REVIEW_OF_DRAFTS]);
    parts.review = between(rest, REVIEW_OF_DRAFTS, [REVISE]);
    parts.revisedStepId =
      /\n\nWrite the revised draft:[^\n]*? about draft (\S+?),/.exec(rest)?.[1] ?? null;
  } else if (team >= 0) {
    parts.request = turn.slice(0, team).trim();
    const rest = turn.slice(team + TEAM_DRAFTS.length);
    const review = rest.lastIndexOf(REVIEW);
    parts.drafts = draftsIn(review >= 0 ? rest.slice(0, review) : rest);
    parts.review = review >= 0 ? rest.slice(review + REVIEW.length).trim() : null;
  }
  return parts;
}
