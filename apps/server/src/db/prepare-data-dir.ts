import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Makes `dataDir` an embedded database with `setupSql` applied (every migration), unless it
 * already is one.
 *
 * A brand-new PostgreSQL cluster costs initdb (2.5–6 s on a 2-core machine) and the
 * migrations (0.7–2 s) on every first start. Both give the same bytes each time for the same
 * PGlite version, settings and migrations, so they run once into a template kept in
 * node_modules/.cache (keyed by exactly those inputs) and every new data directory after that
 * is a file copy (~0.1–0.4 s). A template that cannot be written (read-only install) only
 * costs the time it always did.
 *
 * initdb runs in a short-lived child process either way: it grows PGlite's WebAssembly
 * memory to ~700 MB, and WebAssembly memory never shrinks, so the serving process must only
 * ever open an existing cluster.
 */
export function prepareDataDir(dataDir: string, conf: string, setupSql: string): void {
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
  mkdirSync(dataDir, { recursive: true });
  const template = templateDir(conf, setupSql);
  if (template && !existsSync(path.join(template, "PG_VERSION"))) {
    try {
      buildTemplate(template, conf, setupSql);
    } catch {
      // No cache to write to: initialise the data directory itself, as without a template.
    }
  }
  if (template && existsSync(path.join(template, "PG_VERSION"))) {
    cpSync(template, dataDir, { recursive: true });
    return;
  }
  initCluster(dataDir, conf, setupSql);
}

const packages = createRequire(import.meta.url);

function templateDir(conf: string, setupSql: string): string | null {
  const entry = packages.resolve("@electric-sql/pglite");
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = entry.lastIndexOf(marker);
  if (at < 0) return null;
  const packageJson = path.join(
    entry.slice(0, at + marker.length),
    "@electric-sql/pglite/package.json",
  );
  const version = (JSON.parse(readFileSync(packageJson, "utf8")) as { version: string }).version;
  const key = createHash("sha256").update(`${version}\n${conf}\n${setupSql}`).digest("hex");
  return path.join(
    entry.slice(0, at + marker.length),
    ".cache/cohort",
    `pglite-${key.slice(0, 16)}`,
  );
}

/** Built beside its final place and renamed into it, so a concurrent start never sees half. */
function buildTemplate(template: string, conf: string, setupSql: string): void {
  mkdirSync(path.dirname(template), { recursive: true });
  const scratch = mkdtempSync(`${template}.tmp-`);
  try {
    initCluster(scratch, conf, setupSql);
    renameSync(scratch, template);
    removeStaleTemplates(template);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    // Another process finished the same template first: theirs is as good as ours.
    if (!existsSync(path.join(template, "PG_VERSION"))) throw error;
  }
}

function initCluster(dir: string, conf: string, setupSql: string): void {
  const entry = pathToFileURL(packages.resolve("@electric-sql/pglite")).href;
  const script = `import { readFileSync } from "node:fs";
    const { PGlite } = await import(${JSON.stringify(entry)});
    const db = await PGlite.create({ dataDir: process.argv[1], postgresqlconf: ${JSON.stringify(conf)} });
    await db.exec(readFileSync(0, "utf8"));
    await db.close();`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script, dir], {
    input: setupSql,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`Could not initialise the database in ${dir}: ${result.stderr.trim()}`);
  }
}

/**
 * Templates of earlier migrations are 40 MB each and never used again. One that has not
 * changed for an hour is not being written; a start copying it right now is not worth more.
 */
function removeStaleTemplates(current: string): void {
  const dir = path.dirname(current);
  const hourAgo = Date.now() - 3_600_000;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (full === current || !name.startsWith("pglite-")) continue;
    if (statSync(full).mtimeMs < hourAgo) rmSync(full, { recursive: true, force: true });
  }
}
