import type { JSONSchema7, JSONSchema7Definition } from "@ai-sdk/provider";
import { AGENT_ROLES, type TAgentRole, type TRunPlan } from "@cohort/contracts";
import { toolFits } from "./choose-tools";
import type { Random } from "./seeded-random";
import {
  capitalise,
  contentWords,
  isFactualQuestion,
  languageOf,
  type SubjectKind,
  topicOf,
} from "./subject";

/**
 * JSON mode for the simulator: given the JSON schema a caller asked for (the AI SDK passes it
 * as `responseFormat.schema`), produce a value that satisfies it. The coordinator's run plan
 * is recognised and answered with a plan for the request's subject; any other schema gets
 * schema-valid filler built from the request's words.
 */
export interface JsonContext {
  /** The user's request (the plan call's last user turn). */
  request: string;
  /** The user's earlier messages, oldest first (a follow-up plans for their subject). */
  earlier: readonly string[];
  /** The whole prompt: the simulator looks for "only these roles: …" in it. */
  prompt: string;
  /** The attached documents a plan may name (from the prompt's documents block). */
  documents?: readonly { ref: string; name: string }[];
  /** The tools a plan may name per step, with their roles (from the prompt's tools block). */
  tools?: readonly { name: string; roles: readonly string[] }[];
  random: Random;
}

function isPlanSchema(schema: JSONSchema7): boolean {
  const props = schema.properties ?? {};
  return "rationale" in props && "steps" in props;
}

const CODE_WORDS =
  /\b(code|function|api|implement|bug|script|app|program|sql|python|typescript|javascript|endpoint|algorithm|backend|database|cli|test)\b/i;
const DESIGN_WORDS =
  /\b(design|ui|ux|layout|screen|page|logo|brand|interface|mock-?up|wireframe|landing|visual)\b/i;

function allowedRoles(prompt: string): TAgentRole[] {
  const line = /only (?:these|the following) roles?:?([^\n]*)/i.exec(prompt)?.[1] ?? "";
  const named = AGENT_ROLES.filter((role) => new RegExp(`\\b${role}\\b`, "i").test(line));
  return named.length > 0 ? named : [...AGENT_ROLES];
}

const NEEDS: Record<SubjectKind, string> = {
  page: "working code and a clear design",
  code: "working code",
  data: "a sound data model",
  visual: "a visual design",
  writing: "a clear piece of writing",
  plan: "a concrete plan",
  question: "a clear, practical answer",
};

const CODE_NAMES: Record<ReturnType<typeof languageOf>, string> = {
  tsx: "React component",
  html: "HTML and CSS",
  python: "Python code",
  ts: "TypeScript code",
  js: "JavaScript code",
  sql: "SQL schema and queries",
  bash: "Bash script",
  go: "Go code",
  rust: "Rust code",
};

/** The plan a sensible coordinator would write: strategist, then makers, then the critic. */
export function simulatePlan(
  request: string,
  prompt: string,
  earlier: readonly string[] = [],
): TRunPlan {
  const allowed = allowedRoles(prompt);
  const topic = topicOf(request, earlier);
  const s = topic.subject;
  const prose = topic.kind === "writing" || topic.kind === "question";
  const wantsCode =
    ["page", "code", "data"].includes(topic.kind) || (!prose && CODE_WORDS.test(topic.request));
  const wantsDesign =
    ["page", "visual"].includes(topic.kind) || (!prose && DESIGN_WORDS.test(topic.request));
  const codeName = CODE_NAMES[languageOf(topic.request)];
  const steps: TRunPlan["steps"] = [];
  const add = (role: TAgentRole, task: string, dependsOn: string[]) => {
    const id = `${role}-${steps.length + 1}`;
    steps.push({ id, role, task, dependsOn });
    return id;
  };
  const plan = allowed.includes("strategist")
    ? add(
        "strategist",
        topic.kind === "writing"
          ? `Write ${s}: the reader, the key message and the structure, then the full draft.`
          : isFactualQuestion(topic)
            ? `Answer ${s}, quoting and citing the passage that says it.`
            : `Set the goal, the ordered steps and the risks for ${s}.`,
        [],
      )
    : undefined;
  const after = plan ? [plan] : [];
  let coder = allowed.includes("coder") && wantsCode;
  let designer = allowed.includes("designer") && wantsDesign;
  if (!plan && !coder && !designer) {
    coder = allowed.includes("coder");
    designer = !coder && allowed.includes("designer");
  }
  const makers: string[] = [];
  if (coder)
    makers.push(add("coder", `Write the ${codeName} for ${s}, with how to run it.`, after));
  if (designer) {
    makers.push(
      add(
        "designer",
        topic.kind === "visual"
          ? `Design ${s}: the key decisions, the variants and where each is used.`
          : `Specify the key design decisions, layout, states and accessibility of ${s}.`,
        after,
      ),
    );
  }
  if (allowed.includes("critic")) {
    const reviewed = makers.length > 0 ? makers : after;
    add(
      "critic",
      `Review the drafts for ${s}: list concrete fixes and score them out of 10.`,
      reviewed,
    );
  }
  if (steps.length === 0) add(allowed[0] ?? "strategist", `Answer the request about ${s}.`, []);
  return { rationale: rationaleFor(topic, steps, codeName), steps };
}

function rationaleFor(
  topic: ReturnType<typeof topicOf>,
  steps: TRunPlan["steps"],
  codeName: string,
): string {
  const has = (role: TAgentRole) => steps.some((step) => step.role === role);
  const opening = topic.followUp
    ? `A follow-up on ${topic.subject} (“${topic.followUp}”), which needs ${NEEDS[topic.kind]}.`
    : `${capitalise(topic.subject)} needs ${NEEDS[topic.kind]}.`;
  const makers = [
    has("coder") ? `the Coder writes the ${codeName}` : null,
    has("designer") ? "the Designer sets the key design decisions" : null,
  ].filter((m): m is string => m !== null);
  const work = [
    has("strategist")
      ? topic.kind === "writing"
        ? "The Strategist shapes the message and writes the draft"
        : isFactualQuestion(topic)
          ? "The Strategist finds the answer in what was given"
          : "The Strategist sets the goal and the steps first"
      : null,
    makers.length > 0
      ? `${has("strategist") ? "then " : ""}${makers.join(" and ")}${makers.length > 1 ? " in parallel" : ""}`
      : null,
  ].filter((w): w is string => w !== null);
  const review = has("critic") ? " The Critic reviews the drafts before the final answer." : "";
  return `${opening}${work.length > 0 ? ` ${capitalise(work.join("; "))}.` : ""}${review}`;
}

/** The plan schema with a per-step "documents" list (a session with attached documents). */
function wantsDocuments(schema: JSONSchema7): boolean {
  return stepHas(schema, "documents");
}

function stepHas(schema: JSONSchema7, field: string): boolean {
  const steps = schema.properties?.steps;
  if (typeof steps !== "object" || steps.items === undefined || Array.isArray(steps.items)) {
    return false;
  }
  const items = steps.items;
  return typeof items === "object" && field in (items.properties ?? {});
}

/**
 * Names, per step, the tools its sub-task needs (decision 067): those of its role that the
 * simulator's lane would call for the step's task and the request (choose-tools.ts).
 */
function withTools<P extends TRunPlan>(plan: P, ctx: JsonContext): P {
  const tools = ctx.tools ?? [];
  return {
    ...plan,
    steps: plan.steps.map((step) => ({
      ...step,
      tools: tools
        .filter((t) => t.roles.includes(step.role))
        .filter((t) => toolFits(t.name, `${step.task}\n${ctx.request}`))
        .map((t) => t.name),
    })),
  };
}

/**
 * Names, per step, the documents its sub-task needs: those whose name shares a word with the
 * step's task or the request; all of them when none does (the coordinator cannot tell). The
 * Critic reviews drafts, so it needs none.
 */
function withDocuments(plan: TRunPlan, ctx: JsonContext) {
  const documents = ctx.documents ?? [];
  const nameWords = documents.map((d) => ({
    ref: d.ref,
    words: new Set(contentWords(d.name.replace(/\.[a-z0-9]+$/i, "").replace(/[_-]+/g, " "), 12)),
  }));
  return {
    ...plan,
    steps: plan.steps.map((step) => {
      if (step.role === "critic") return { ...step, documents: [] };
      const about = contentWords(`${step.task} ${ctx.request}`, 60);
      const named = nameWords.filter((d) => about.some((w) => d.words.has(w))).map((d) => d.ref);
      return { ...step, documents: named.length > 0 ? named : documents.map((d) => d.ref) };
    }),
  };
}

function resolveRef(root: JSONSchema7, ref: string): JSONSchema7Definition | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const table = match[1] === "$defs" ? root.$defs : root.definitions;
  return table?.[decodeURIComponent(match[2] ?? "")];
}

function stringFor(name: string, schema: JSONSchema7, ctx: JsonContext): string {
  if (schema.format === "date-time") return "2025-01-01T00:00:00.000Z";
  if (schema.format === "date") return "2025-01-01";
  if (schema.format === "email") return "someone@example.com";
  if (schema.format === "uri" || schema.format === "url") return "https://example.com/";
  if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000000";
  const [k1 = "item", k2 = "details"] = contentWords(topicOf(ctx.request).subject, 2);
  let text = /^(id|key|slug)$/i.test(name)
    ? `${k1}-${ctx.random.int(1, 99)}`.replace(/\s+/g, "-")
    : `${name ? `${name}: ` : ""}${k1} and ${k2}`;
  const min = schema.minLength ?? 0;
  while (text.length < min) text += ` ${k1}`;
  return schema.maxLength !== undefined ? text.slice(0, schema.maxLength) : text;
}

function generate(
  definition: JSONSchema7Definition,
  name: string,
  root: JSONSchema7,
  ctx: JsonContext,
  depth: number,
): unknown {
  if (typeof definition === "boolean") return definition ? {} : null;
  const schema = definition;
  if (schema.$ref) {
    const target = resolveRef(root, schema.$ref);
    return depth > 8 || !target ? null : generate(target, name, root, ctx, depth + 1);
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return ctx.random.pick(schema.enum);
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice && choice.length > 0) {
    const nonNull = choice.find((c) => typeof c !== "boolean" && c.type !== "null") ?? choice[0];
    return generate(nonNull as JSONSchema7Definition, name, root, ctx, depth + 1);
  }
  if (schema.allOf?.[0] !== undefined) return generate(schema.allOf[0], name, root, ctx, depth + 1);
  const type = Array.isArray(schema.type)
    ? (schema.type.find((t) => t !== "null") ?? "null")
    : (schema.type ?? (schema.properties ? "object" : "string"));
  switch (type) {
    case "object": {
      if (depth === 0 && isPlanSchema(schema)) {
        const plan = simulatePlan(ctx.request, ctx.prompt, ctx.earlier);
        const named = wantsDocuments(schema) ? withDocuments(plan, ctx) : plan;
        return stepHas(schema, "tools") ? withTools(named, ctx) : named;
      }
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        if (depth > 8 && !schema.required?.includes(key)) continue;
        out[key] = generate(child, key, root, ctx, depth + 1);
      }
      return out;
    }
    case "array": {
      const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
      const count = Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 1, 2));
      if (items === undefined || depth > 8) return [];
      return Array.from({ length: count }, () => generate(items, name, root, ctx, depth + 1));
    }
    case "integer":
    case "number": {
      const exclusiveMin =
        typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : undefined;
      const exclusiveMax =
        typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum - 1 : undefined;
      const min = Math.ceil(schema.minimum ?? exclusiveMin ?? 0);
      const max = Math.floor(schema.maximum ?? exclusiveMax ?? min + 10);
      return max < min ? min : ctx.random.int(min, max);
    }
    case "boolean":
      return ctx.random.next() < 0.5;
    case "null":
      return null;
    default:
      return stringFor(name, schema, ctx);
  }
}

export function jsonFromSchema(schema: JSONSchema7 | undefined, ctx: JsonContext): unknown {
  if (!schema) return { answer: topicOf(ctx.request).subject };
  return generate(schema, "", schema, ctx, 0);
}
