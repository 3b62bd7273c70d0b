import {
  AGENT_ROLE_NAMES,
  describeChecks,
  isRunActive,
  NATIVE_MODELS,
  RUN_STATUS_LABELS,
  RUN_STEP_STATUS_LABELS,
  SESSION_STATUS_LABELS,
  sessionActivity,
  type TChatMessage,
  type TExportedRun,
  type TRunPassage,
  type TRunStep,
  type TSessionExport,
} from "@cohort/contracts";

import { branchOnScreen } from "./branch-on-screen";

/**
 * A session export as a Markdown document to read: the session's settings, then the
 * conversation, each run with its plan, every call (role, model, provider, tokens, credits),
 * the Critic's score, the final answer, and the passages it cites as footnotes. The PDF is
 * drawn from this same text.
 */
export function renderSessionMarkdown(all: TSessionExport): string {
  // The branch on screen; the JSON export has them all (decision 070).
  const data = { ...all, ...branchOnScreen(all.messages, all.runs) };
  const out: string[] = [`# ${oneLine(data.session.title)}`, ""];
  if (data.session.description) out.push(data.session.description, "");
  out.push(...sessionFacts(data), "");
  const resultIds = new Set(data.runs.flatMap((r) => r.result_message_id ?? []));
  let runNumber = 0;
  for (const message of data.messages) {
    if (message.role === "assistant") {
      if (!resultIds.has(message.id)) out.push("**Answer**", "", message.content, "");
      continue;
    }
    out.push("---", "", `## ${oneLine(firstLine(message.content))}`, "", quote(message), "");
    for (const run of data.runs.filter((r) => r.message_id === message.id)) {
      runNumber += 1;
      out.push(...renderRun(run, runNumber, data.messages), "");
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}

const credits = (n: number) => `${n.toFixed(2)} credits`;
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const firstLine = (text: string) => {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 77)}…` : line || "Message";
};
const cell = (text: string) => oneLine(text).replaceAll("|", "\\|");

function quote(message: TChatMessage): string {
  return message.content
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

function sessionFacts(data: TSessionExport): string[] {
  const { session } = data;
  const budget = session.budget_credits === null ? "no cap" : credits(session.budget_credits);
  const rows = [
    ["Coordinator", modelName(session.coordinator_model, data)],
    ["Status", SESSION_STATUS_LABELS[shownStatus(data)]],
    ["Credits spent", `${credits(session.spent_credits)} (budget: ${budget})`],
    ["Created", session.created_at],
    ["Exported", data.exported_at],
    ...(session.imported_at ? [["Imported", session.imported_at]] : []),
    ...(data.documents.length > 0
      ? [["Documents", data.documents.map((d) => d.name).join(", ")]]
      : []),
  ];
  return ["| Session | |", "| --- | --- |", ...rows.map(([k, v]) => `| ${k} | ${cell(v ?? "")} |`)];
}

/**
 * The labels say what the screen says (decision 057): a model's name, not its id, and the
 * session's status as its badge shows it (an active session whose last run completed reads
 * "Completed").
 */
function modelName(id: string, data: TSessionExport): string {
  const native = NATIVE_MODELS.find((m) => m.id === id);
  if (native) return native.name;
  for (const run of data.runs) {
    if (run.plan?.coordinator.model === id) return run.plan.coordinator.model_name;
    const step = run.steps.find((s) => s.model === id);
    if (step) return step.model_name;
  }
  return id;
}

function shownStatus(data: TSessionExport): keyof typeof SESSION_STATUS_LABELS {
  const { session, runs } = data;
  if (session.status !== "active") return session.status;
  const newest = runs.at(-1);
  const times = [
    session.created_at,
    ...runs.flatMap((r) => (r.finished_at ? [r.created_at, r.finished_at] : [r.created_at])),
  ].map((t) => Date.parse(t));
  return sessionActivity(
    {
      running: runs.some((r) => isRunActive(r.status)),
      lastRunEnded:
        newest && !isRunActive(newest.status)
          ? (newest.status as "completed" | "failed" | "cancelled")
          : null,
      lastActivityAt: Math.max(...times),
    },
    Date.parse(data.exported_at),
  );
}

function modelOf(step: Pick<TRunStep, "model_name" | "provider" | "simulated">): string {
  const where = step.simulated ? "simulated" : step.provider;
  return where ? `${step.model_name} (${where})` : step.model_name;
}

function callFacts(step: TRunStep): string {
  const parts = [
    modelOf(step),
    credits(step.credits),
    `${step.input_tokens} in / ${step.output_tokens} out tokens`,
    RUN_STEP_STATUS_LABELS[step.status],
  ];
  if (step.version > 1) parts.push(`version ${step.version}`);
  if (step.temperature !== null) parts.push(`temperature ${step.temperature}`);
  if (step.critic_score !== null) parts.push(`Critic score ${step.critic_score}/10`);
  return parts.join(" · ");
}

function renderRun(run: TExportedRun, n: number, messages: readonly TChatMessage[]): string[] {
  const cite = citer(run, n);
  const head = [
    `Run ${n}`,
    RUN_STATUS_LABELS[run.status],
    run.mode === "manual" ? "Manual team" : "Automatic team",
    credits(run.total_credits),
  ];
  if (run.critic_score !== null) head.push(`Critic score ${run.critic_score}/10`);
  if (run.imported) head.push("imported (cost where it ran, not charged here)");
  const out = [`### ${head.join(" · ")}`, ""];
  out.push(...renderPlan(run), ...renderCalls(run, cite), ...renderAnswer(run, messages, cite));
  if (run.error) out.push(`**Failed:** ${run.error.message} (\`${run.error.code}\`)`, "");
  out.push(...cite.footnotes());
  return out;
}

function renderPlan(run: TExportedRun): string[] {
  const plan = run.plan;
  if (!plan) return [];
  const call = run.steps.find((s) => s.kind === "plan");
  const by = call ? ` — ${callFacts(call)}` : ` — ${modelOf({ ...plan.coordinator })}`;
  const out = [`#### Plan${by}`, ""];
  if (plan.rationale) out.push(plan.rationale, "");
  out.push("| Step | Role | Model | Task |", "| --- | --- | --- | --- |");
  for (const step of plan.steps) {
    out.push(
      `| ${cell(step.id)} | ${AGENT_ROLE_NAMES[step.role]} | ${cell(modelOf(step))} | ${cell(step.task)} |`,
    );
  }
  out.push("");
  for (const note of plan.notes) out.push(`- Note: ${note}`);
  const memories = run.memories.length > 0 ? run.memories : (plan.memories ?? []);
  for (const memory of memories) out.push(`- Used memory: ${oneLine(memory.text)}`);
  if (plan.notes.length > 0 || memories.length > 0) out.push("");
  return out;
}

const KIND_LABEL: Record<string, string> = {
  agent: "",
  critic: "",
  revision: "Revision: ",
};

function renderCalls(run: TExportedRun, cite: Citer): string[] {
  const out: string[] = [];
  for (const step of run.steps) {
    if (!step.role || !(step.kind in KIND_LABEL)) continue;
    const rerun = step.rerun_of === null ? "" : "Re-run: ";
    const title = `${rerun}${KIND_LABEL[step.kind]}${AGENT_ROLE_NAMES[step.role]}`;
    out.push(`#### ${title} — ${callFacts(step)}`, "");
    const verdict = run.critic_verdicts.find((v) => v.call_id === step.id);
    if (verdict) {
      const drafts = Object.entries(verdict.draft_scores).map(([id, s]) => `${id}: ${s}/10`);
      const score = verdict.score === null ? "no score" : `Score ${verdict.score}/10`;
      out.push(
        `**Critic verdict:** ${score}, ${verdict.verdict}${drafts.length > 0 ? ` (drafts ${drafts.join(", ")})` : ""}`,
        "",
      );
      // What the score rests on (decision 068): the checks that ran, or the Critic's reading.
      if (verdict.evidence === "ran" && verdict.checks) {
        out.push(`**Checks:** ${describeChecks(verdict.checks)}. Score based on evidence.`, "");
      } else if (verdict.evidence === "opinion") {
        out.push("**Checks:** none ran. Score based on the Critic's reading (opinion).", "");
      }
    }
    const tools = run.tool_calls.filter((c) => c.call_id === step.id);
    if (tools.length > 0) out.push(...renderToolCalls(tools), "");
    if (step.output) out.push(cite.text(step.output), "");
    if (step.error) out.push(`*${step.error.message}*`, "");
  }
  return out;
}

/** A lane's tool calls (decision 058): tool, status, time, size, cost, approval, error. */
function renderToolCalls(calls: TExportedRun["tool_calls"]): string[] {
  return [
    "**Tool calls:**",
    "",
    ...calls.map((c) => {
      const facts = [
        c.status,
        c.duration_ms === null ? null : `${c.duration_ms} ms`,
        c.output_chars === null
          ? null
          : `${c.output_chars} characters${c.truncated ? " (cut)" : ""}`,
        c.credits > 0 ? `${c.credits} credits` : null,
        c.approval
          ? `${c.approval.decision}${c.approval.by_name ? ` by ${c.approval.by_name}` : ""}`
          : null,
      ].filter(Boolean);
      const args = JSON.stringify(c.args) ?? "";
      const shown = args.length > 200 ? `${args.slice(0, 199)}…` : args;
      const error = c.error ? ` — ${c.error.message}` : "";
      return `- \`${c.tool}\` ${shown ? `\`${shown.replace(/`/g, "'")}\` ` : ""}— ${facts.join(", ")}${error}`;
    }),
  ];
}

function renderAnswer(run: TExportedRun, messages: readonly TChatMessage[], cite: Citer): string[] {
  const out: string[] = [];
  const synthesis = run.steps.find((s) => s.kind === "synthesis" && s.rerun_of === null);
  const result = messages.find((m) => m.id === run.result_message_id);
  const text = result?.content ?? synthesis?.output ?? "";
  if (text) {
    out.push(`#### Final answer${synthesis ? ` — ${callFacts(synthesis)}` : ""}`, "");
    out.push(cite.text(text), "");
  }
  for (const version of run.steps.filter((s) => s.kind === "synthesis" && s.rerun_of !== null)) {
    out.push(`#### Answer version ${version.version} — ${callFacts(version)}`, "");
    if (version.output) out.push(cite.text(version.output), "");
  }
  return out;
}

interface Citer {
  /** The text with `[n]` as footnote references and headings demoted (outside code blocks). */
  text(source: string): string;
  /** The footnotes of every passage referenced so far. */
  footnotes(): string[];
}

/** Citations as footnotes, labelled per run (`[^r2-1]`): numbers restart in every run. */
function citer(run: TExportedRun, n: number): Citer {
  const passages = new Map(run.passages.map((p) => [p.n, p]));
  const used = new Set<number>();
  const label = (k: number) => `[^r${n}-${k}]`;
  const replace = (line: string) =>
    line.replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()/g, (whole, list: string) => {
      const numbers = list.split(",").map((s) => Number(s.trim()));
      if (!numbers.every((k) => passages.has(k))) return whole;
      for (const k of numbers) used.add(k);
      return numbers.map(label).join("");
    });
  return {
    text(source) {
      let fenced = false;
      return source
        .split("\n")
        .map((line) => {
          if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
          return fenced || /^\s*(```|~~~)/.test(line) ? line : replace(demote(line));
        })
        .join("\n");
    },
    footnotes() {
      // A blank line after each: a reader that does not know footnotes keeps them apart.
      return [...used]
        .sort((a, b) => a - b)
        .flatMap((k) => [footnote(label(k), passages.get(k)), ""]);
    },
  };
}

/**
 * A heading inside a model's text, four levels down (at most level 6): under the run's own
 * headings, a draft's "## Plan" must not read as a new part of the conversation.
 */
function demote(line: string): string {
  return line.replace(/^(#{1,6})(?=\s)/, (marks) => "#".repeat(Math.min(6, marks.length + 4)));
}

function footnote(label: string, passage: TRunPassage | undefined): string {
  if (!passage) return `${label}: (missing passage)`;
  const where = [
    passage.page === null ? null : `p. ${passage.page}`,
    passage.section ? oneLine(passage.section) : null,
  ].filter(Boolean);
  const snippet = oneLine(passage.text);
  const short = snippet.length > 200 ? `${snippet.slice(0, 197)}…` : snippet;
  return `${label}: **${oneLine(passage.document_name)}**${where.length > 0 ? `, ${where.join(", ")}` : ""} — “${short}”`;
}
