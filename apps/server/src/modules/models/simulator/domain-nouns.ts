/**
 * The nouns of the task's own world (decision 056): a "library lending" API lends books to
 * members through loans, it is not a to-do list. A few common domains are known by their
 * telling words; the code and data models the simulator writes use their entities and fields.
 */
export interface DomainField {
  name: string;
  ts: "string" | "number" | "boolean";
  sql: string;
  /** An example value for the run line's request. */
  example: string | number | boolean;
  /** The table this field points to (a foreign key). */
  references?: string;
}

export interface DomainEntity {
  plural: string;
  fields: readonly DomainField[];
}

interface Domain {
  words: RegExp;
  entities: readonly DomainEntity[];
  /** The entity an API is about: the first whose words the subject uses, else the first. */
  primary: readonly [RegExp, string][];
}

const text = (name: string, example: string): DomainField => ({
  name,
  ts: "string",
  sql: "text NOT NULL",
  example,
});
const ref = (name: string, table: string): DomainField => ({
  name,
  ts: "number",
  sql: `bigint NOT NULL REFERENCES ${table} (id)`,
  example: 1,
  references: table,
});
const date = (name: string, example: string): DomainField => ({
  name,
  ts: "string",
  sql: "date NOT NULL",
  example,
});

const DOMAINS: readonly Domain[] = [
  {
    words: /\b(?:librar(?:y|ies)|lending|lend|loans?|borrow\w*|books?|overdue)\b/i,
    entities: [
      { plural: "books", fields: [text("title", "Middlemarch"), text("author", "George Eliot")] },
      {
        plural: "members",
        fields: [text("name", "Ada Lovelace"), text("email", "ada@example.com")],
      },
      {
        plural: "loans",
        fields: [ref("bookId", "books"), ref("memberId", "members"), date("dueOn", "2026-12-20")],
      },
    ],
    primary: [
      [/\b(?:lend\w*|loans?|borrow\w*|overdue)\b/i, "loans"],
      [/\bmembers?\b/i, "members"],
    ],
  },
  {
    words: /\b(?:shop|store|e-?commerce|orders?|products?|cart|checkout)\b/i,
    entities: [
      {
        plural: "products",
        fields: [
          text("name", "Sourdough loaf"),
          {
            name: "priceCents",
            ts: "number",
            sql: "integer NOT NULL CHECK (price_cents >= 0)",
            example: 450,
          },
        ],
      },
      {
        plural: "customers",
        fields: [text("name", "Ada Lovelace"), text("email", "ada@example.com")],
      },
      { plural: "orders", fields: [ref("customerId", "customers"), ref("productId", "products")] },
    ],
    primary: [
      [/\borders?\b/i, "orders"],
      [/\bcustomers?\b/i, "customers"],
    ],
  },
  {
    words: /\b(?:clinic|patients?|appointments?|doctors?)\b/i,
    entities: [
      { plural: "patients", fields: [text("name", "Ada Lovelace"), date("bornOn", "1990-12-10")] },
      {
        plural: "doctors",
        fields: [text("name", "Dr Grace Hopper"), text("specialty", "General practice")],
      },
      {
        plural: "appointments",
        fields: [
          ref("patientId", "patients"),
          ref("doctorId", "doctors"),
          date("on", "2026-12-20"),
        ],
      },
    ],
    primary: [[/\bappointments?\b/i, "appointments"]],
  },
  {
    words: /\b(?:school|students?|courses?|enrol\w*|classes)\b/i,
    entities: [
      {
        plural: "students",
        fields: [text("name", "Ada Lovelace"), text("email", "ada@example.com")],
      },
      { plural: "courses", fields: [text("title", "Algebra I"), text("teacher", "Mr Babbage")] },
      { plural: "enrollments", fields: [ref("studentId", "students"), ref("courseId", "courses")] },
    ],
    primary: [[/\benrol\w*\b/i, "enrollments"]],
  },
  {
    words: /\b(?:tasks?|todos?|to-dos?)\b/i,
    entities: [
      {
        plural: "tasks",
        fields: [
          text("title", "Water the plants"),
          { name: "done", ts: "boolean", sql: "boolean NOT NULL DEFAULT false", example: false },
        ],
      },
    ],
    primary: [],
  },
];

/** The entities of the subject's domain, or null when none is known. */
export function domainEntitiesOf(subject: string): readonly DomainEntity[] | null {
  return DOMAINS.find((domain) => domain.words.test(subject))?.entities ?? null;
}

/** The one entity an API for the subject is about, when its domain is known. */
export function primaryEntityOf(subject: string): DomainEntity | null {
  const domain = DOMAINS.find((d) => d.words.test(subject));
  if (!domain) return null;
  const named = domain.primary.find(([words]) => words.test(subject))?.[1];
  return domain.entities.find((e) => e.plural === named) ?? domain.entities[0] ?? null;
}

/** snake_case of a field name, for SQL columns: `dueOn` → `due_on`. */
export function columnOf(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
