import fc from "fast-check";

/**
 * Inputs for a route, drawn from the JSON Schema the OpenAPI document publishes for it (the
 * zod contracts, converted): mostly almost-valid values — the right shape with edge-case
 * leaves, which reach deepest into a handler — mixed with wrong types, junk and nothing.
 * Only what the contracts emit is understood; anything else gets arbitrary JSON.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  $ref?: string;
}

/** Strings that have broken servers before: each aims at one kind of mistake. */
const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\uFEFF",
  "💥".repeat(3),
  "<script>alert(1)</script>",
  "'; DROP TABLE users; --",
  "../../../etc/passwd",
  "..\\..\\windows",
  "%00",
  "%2e%2e%2f",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text of a Log4Shell probe
  "${jndi:ldap://x}",
  "{{7*7}}",
  "__proto__",
  "constructor",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "not-a-uuid",
  "http://169.254.169.254/latest",
  "javascript:alert(1)",
  "a".repeat(5000),
  "9".repeat(400),
  "-1",
  "NaN",
  "true",
  "null",
];

const NASTY_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.5,
  -0.5,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 31,
  1e-300,
];

const json = fc.jsonValue({ maxDepth: 3 });

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  const max = Math.min(schema.maxLength ?? 64, 300);
  const min = Math.min(schema.minLength ?? 0, max);
  const edges = [
    "x".repeat(min),
    "x".repeat(max),
    "x".repeat(max + 1),
    ...(min > 0 ? ["x".repeat(min - 1)] : []),
  ];
  const byFormat: Record<string, fc.Arbitrary<string>> = {
    email: fc.emailAddress(),
    uuid: fc.uuid(),
    uri: fc.webUrl(),
    "date-time": fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  };
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS, ...edges) },
    { weight: 2, arbitrary: byFormat[schema.format ?? ""] ?? fc.string({ maxLength: max }) },
    // A valid-looking value with one bad character in it: passes length checks, reaches storage.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ minLength: min, maxLength: max }), fc.constantFrom("\u0000", "\uFFFF"))
        .map(([value, bad]) => `${value.slice(0, Math.max(0, value.length - 1))}${bad}`),
    },
  );
}

function numberArb(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = schema.minimum ?? -1e9;
  const hi = schema.maximum ?? 1e9;
  const edges = [lo, hi, lo - 1, hi + 1, ...NASTY_NUMBERS].filter(Number.isFinite);
  return fc.oneof(
    {
      weight: 3,
      arbitrary: integer ? fc.integer() : fc.double({ noNaN: true, noDefaultInfinity: true }),
    },
    { weight: 2, arbitrary: fc.constantFrom(...edges) },
  );
}

export function arbitraryFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return json;
  const options: fc.Arbitrary<unknown>[] = [];
  for (const inner of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    options.push(arbitraryFor(inner, depth + 1));
  }
  if (schema.allOf?.[0]) options.push(arbitraryFor(schema.allOf[0], depth + 1));
  if (schema.enum) options.push(fc.constantFrom(...schema.enum));
  if (schema.const !== undefined) options.push(fc.constant(schema.const));
  for (const type of typesOf(schema)) {
    if (type === "string") options.push(stringArb(schema));
    if (type === "number") options.push(numberArb(schema, false));
    if (type === "integer") options.push(numberArb(schema, true));
    if (type === "boolean") options.push(fc.boolean());
    if (type === "null") options.push(fc.constant(null));
    if (type === "array") {
      options.push(fc.array(arbitraryFor(schema.items, depth + 1), { maxLength: 4 }));
    }
    if (type === "object") options.push(objectArb(schema, depth));
  }
  if (options.length === 0) return json;
  // Now and then the wrong type altogether.
  return fc.oneof({ weight: 6, arbitrary: fc.oneof(...options) }, { weight: 1, arbitrary: json });
}

function objectArb(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const fields = Object.fromEntries(
    Object.entries(properties).map(([key, inner]) => [key, arbitraryFor(inner, depth + 1)]),
  );
  const known = Object.keys(fields);
  // Required fields are always there (missing ones come from `{}` and the wrong-type junk).
  const record = fc.record(fields, { requiredKeys: known.filter((k) => required.has(k)) });
  const extra =
    typeof schema.additionalProperties === "object"
      ? fc.dictionary(
          schema.propertyNames?.enum
            ? fc.constantFrom(...(schema.propertyNames.enum as string[]), "__proto__", "x")
            : fc.string({ maxLength: 12 }),
          arbitraryFor(schema.additionalProperties, depth + 1),
          { maxKeys: 3 },
        )
      : fc.dictionary(fc.constantFrom("extra", "__proto__", "constructor", "x".repeat(300)), json, {
          maxKeys: 1,
        });
  return fc.oneof(
    { weight: 4, arbitrary: record },
    {
      weight: 1,
      arbitrary: fc
        .tuple(record, extra)
        .map(([a, b]) => ({ ...b, ...a }) as Record<string, unknown>),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

/**
 * One value the schema accepts, as plain as possible: the base that a targeted test (a bad
 * character in one field at a time) changes in exactly one place.
 */
export function exampleFor(schema: JsonSchema | undefined): unknown {
  if (!schema) return {};
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const branch = schema.anyOf?.find((s) => s.type !== "null") ?? schema.oneOf?.[0];
  if (branch) return exampleFor(branch);
  const [type] = typesOf(schema);
  if (type === "string") {
    if (schema.format === "email") return "someone@example.com";
    if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000000";
    if (schema.format === "uri") return "https://example.com/x";
    return "x".repeat(Math.max(1, schema.minLength ?? 1));
  }
  if (type === "number" || type === "integer") return Math.max(1, schema.minimum ?? 1);
  if (type === "boolean") return false;
  if (type === "array") return [];
  if (type === "object") {
    const required = new Set(schema.required ?? []);
    return Object.fromEntries(
      Object.entries(schema.properties ?? {})
        .filter(
          ([key]) => required.has(key) || typesOf(schema.properties?.[key] ?? {})[0] === "string",
        )
        .map(([key, inner]) => [key, exampleFor(inner)]),
    );
  }
  return null;
}

/** Paths of every string in a value, e.g. [["title"], ["agent_preferences", "coder", "model"]]. */
export function stringPaths(value: unknown, at: string[] = []): string[][] {
  if (typeof value === "string") return [at];
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([key, inner]) => stringPaths(inner, [...at, key]));
  }
  return [];
}

/** A copy of `value` with the string at `path` replaced. */
export function withStringAt(value: unknown, path: readonly string[], text: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return text;
  const record = value as Record<string, unknown>;
  return { ...record, [head]: withStringAt(record[head], rest, text) };
}
