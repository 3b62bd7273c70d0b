#!/usr/bin/env node
// `npm run schema:doc`: writes docs/schema.md, the schema the migrations build, read from a
// fresh in-memory PGlite database (apps/server/src/db/describe-schema.ts). Run it after adding
// a migration; the unit test beside describe-schema.ts fails while the file is stale.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDb } from "../apps/server/src/db/client.ts";
import { describeSchema } from "../apps/server/src/db/describe-schema.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const db = await createDb({});
try {
  writeFileSync(path.join(root, "docs/schema.md"), await describeSchema(db));
} finally {
  await db.close();
}
console.log("docs/schema.md written");
