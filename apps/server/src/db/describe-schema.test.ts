import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "./client";
import { describeSchema } from "./describe-schema";

// A new embedded cluster and 29 migrations applied one by one: seconds on a busy machine.
const SLOW = 180_000;
const SCHEMA_DOC = path.join(import.meta.dirname, "../../../../docs/schema.md");

describe("docs/schema.md", () => {
  let db: Db;
  let generated: string;
  beforeAll(async () => {
    db = await createDb({});
    generated = await describeSchema(db);
  }, SLOW);
  afterAll(() => db?.close());

  it("is what `npm run schema:doc` writes from the migrations today", () => {
    const committed = readFileSync(SCHEMA_DOC, "utf8");
    // On a mismatch, run `npm run schema:doc` and commit docs/schema.md.
    expect(committed).toBe(generated);
  });

  it("names each table's columns, constraints, indexes and the migration that made it", () => {
    const section = generated.slice(generated.indexOf("\n## credit_holds\n"));
    const table = section.slice(0, section.indexOf("\n## ", 1));
    expect(table).toContain("Created by migration `0006_credits`.");
    expect(table).toContain("| `id` | uuid | no | `gen_random_uuid()` |");
    expect(table).toMatch(/- `credit_holds_pkey`: `PRIMARY KEY \(id\)`/);
    expect(generated).toContain("## schema_migrations");
  });
});
