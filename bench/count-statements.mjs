// Preloaded into the server by `BENCH_COUNT_STATEMENTS=file` (NODE_OPTIONS=--import …):
// counts every statement the PostgreSQL driver sends (the app's pool, the health probe and
// the run queue alike: they share the one `pg` package), by its text (whitespace collapsed).
// On SIGUSR2 it writes the counts so far to the file (JSON, text → count), so a benchmark can
// read them between two moments without stopping the server (decision 086).
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const file = process.env.BENCH_COUNT_STATEMENTS_FILE;
// The server's own copy of the driver: resolved from the bundle's folder, as it imports it.
const require = createRequire(path.join(process.cwd(), "apps/server/package.json"));
const pg = require("pg");
const counts = new Map();
const original = pg.Client.prototype.query;
pg.Client.prototype.query = function query(config, ...rest) {
  const text = typeof config === "string" ? config : config?.text;
  if (typeof text === "string") {
    const key = text.replace(/\s+/g, " ").trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return original.call(this, config, ...rest);
};
process.on("SIGUSR2", () => {
  if (file) writeFileSync(file, JSON.stringify(Object.fromEntries(counts)));
});
