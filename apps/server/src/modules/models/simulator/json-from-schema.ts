import type { JSONSchema7, JSONSchema7Definition } from "@ai-sdk/provider";
import { AGENT_ROLES, type TAgentRole, type TRunPlan } from "@cohort/contracts";
import { keywordsOf, topicOf } from "./compose-answer";
import type { Random } from "./seeded-random";

/**
 * JSON mode for the simulator: given the JSON schema a caller asked for (the AI SDK passes it
 * as `responseFormat.schema`), produce a value that satisfies it. The coordinator's run plan
 * is recognised and answered with a sensible plan; any other schema gets schema-valid
 * filler built from the request's words.
 */
export interface JsonContext {
  request: string;
  /** The whole prompt: the simulator looks for "only these roles: …" in it. */
  prompt: string;
  random: Random;
}

function isPlanSchema(schema: JSONSchema7): boolean {
  const props = schema.properties ?? {};
  return "rationale" in props && "steps" in props;
}

const CODE_WORDS =
  /\b(code|function|api|implement|bug|script|app|program|sql|python|typescript|javascript|endpoint|algorithm|backend|database|cli|test)\b/i;
const DESIGN_WORDS =
  /\b(design|ui|ux|layout|screen|page|logo|brand|interface|mock-?up|wireframe|style|landing|visual|colou?r)\b/i;

function allowedRoles(prompt: string): TAgentRole[] {
  const line = /only (?:these|the following) roles?:?([^\n]*)/i.exec(prompt)?.[1] ?? "";
  const named = AGENT_ROLES.filter((role) => new RegExp(`\\b${role}\\b`, "i").test(line));
  return named.length > 0 ? named : [...AGENT_ROLES];
}

/** The plan a sensible coordinator would write: strategist, then makers, then the critic. */
export function simulatePlan(request: string, prompt: string): TRunPlan {
  const allowed = allowedRoles(prompt);
  const topic = topicOf(request);
  const wantsCode = CODE_WORDS.test(request);
  const wantsDesign = DESIGN_WORDS.test(request);
  const steps: TRunPlan["steps"] = [];
  const add = (role: TAgentRole, task: string, dependsOn: string[]) => {
    const id = `${role}-${steps.length + 1}`;
    steps.push({ id, role, task, dependsOn });
    return id;
  };
  const plan = allowed.includes("strategist")
    ? add("strategist", `Outline the approach, steps and risks for: ${topic}.`, [])
    : undefined;
  const after = plan ? [plan] : [];
  const makers: string[] = [];
  if (allowed.includes("coder") && (wantsCode || !wantsDesign)) {
    makers.push(add("coder", `Write the code for: ${topic}.`, after));
  }
  if (allowed.includes("designer") && (wantsDesign || !allowed.includes("coder"))) {
    makers.push(add("designer", `Write the design and UX specification for: ${topic}.`, after));
  }
  if (allowed.includes("critic")) {
    const reviewed = makers.length > 0 ? makers : after;
    add("critic", `Review the drafts for: ${topic}; score them out of 10.`, reviewed);
  }
  if (steps.length === 0) add(allowed[0] ?? "strategist", `Answer: ${topic}.`, []);
  const names = steps.map((s) => s.role).join(", then ");
  return {
    rationale: `The request is about ${keywordsOf(request, 2).join(" and ")}; the team works in this order: ${names}.`,
    steps,
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
  const [k1, k2] = keywordsOf(ctx.request, 2);
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
      if (depth === 0 && isPlanSchema(schema)) return simulatePlan(ctx.request, ctx.prompt);
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
  if (!schema) return { answer: topicOf(ctx.request) };
  return generate(schema, "", schema, ctx, 0);
}
