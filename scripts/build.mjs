#!/usr/bin/env node
// Builds what is missing or stale: the web app (Vite) and the server bundle (esbuild).
// A build is stale when any of its input files changed since the stamp in its dist/.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SKIP = new Set(["node_modules", "dist", ".vite"]);

function listFiles(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  const stat = statSync(full);
  if (stat.isFile()) return [full];
  return readdirSync(full, { withFileTypes: true }).flatMap((d) =>
    SKIP.has(d.name) ? [] : listFiles(path.join(entry, d.name)),
  );
}

function fingerprint(inputs) {
  const hash = createHash("sha256");
  hash.update("production-v3\n");
  for (const file of inputs.flatMap(listFiles).sort()) {
    const stat = statSync(file);
    hash.update(`${path.relative(root, file)}:${stat.size}:${stat.mtimeMs}\n`);
  }
  return hash.digest("hex");
}

const targets = {
  web: {
    stamp: "apps/web/dist/.build-stamp",
    inputs: [
      "apps/web/src",
      "apps/web/public",
      "apps/web/index.html",
      "apps/web/vite.config.ts",
      "apps/web/package.json",
      "packages/contracts/src",
    ],
    async build() {
      const { build } = await import(
        pathToFileURL(path.join(root, "node_modules/vite/dist/node/index.js")).href
      );
      // Vite takes the React build flavour from NODE_ENV, which test runners set to "test":
      // what we serve is always the production build, whoever asks for it.
      const previous = process.env.NODE_ENV;
      process.env.NODE_ENV = "production";
      try {
        await build({
          root: path.join(root, "apps/web"),
          mode: "production",
          logLevel: "warn",
          configFile: path.join(root, "apps/web/vite.config.ts"),
        });
      } finally {
        if (previous === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = previous;
      }
    },
  },
  server: {
    stamp: "apps/server/dist/.build-stamp",
    inputs: ["apps/server/src", "apps/server/package.json", "packages/contracts/src"],
    async build() {
      const esbuild = await import("esbuild");
      const pkg = JSON.parse(readFileSync(path.join(root, "apps/server/package.json"), "utf8"));
      const external = Object.keys(pkg.dependencies ?? {}).filter(
        (name) => name !== "@cohort/contracts",
      );
      // Chunks are named by their content: a rebuild must not leave the old ones beside.
      const outdir = path.join(root, "apps/server/dist");
      rmSync(outdir, { recursive: true, force: true });
      await esbuild.build({
        // The embedded database's thread is its own entry: main.js starts it from
        // ./pglite-worker.js beside itself (db/pglite-client.ts).
        entryPoints: {
          main: path.join(root, "apps/server/src/main.ts"),
          "pglite-worker": path.join(root, "apps/server/src/db/pglite-worker.ts"),
          // Document extraction's thread (modules/documents/extract-document.ts), likewise.
          "document-extraction-worker": path.join(
            root,
            "apps/server/src/modules/documents/extraction-worker.ts",
          ),
          // run_code's sandbox process (modules/code-runner/sandbox.ts, decision 062): plain
          // JavaScript, started beside the bundle as code-sandbox-child.mjs.
          "code-sandbox-child": path.join(
            root,
            "apps/server/src/modules/code-runner/sandbox-child.mjs",
          ),
          // read_url's extraction thread (modules/web-tools/extract-in-worker.ts), likewise.
          "read-url-worker": path.join(
            root,
            "apps/server/src/modules/web-tools/extraction-worker.ts",
          ),
          // The PDF export's thread (modules/export/render-pdf.ts, decision 050), likewise.
          "pdf-render-worker": path.join(
            root,
            "apps/server/src/modules/export/render-pdf-worker.ts",
          ),
        },
        outdir,
        bundle: true,
        // main.js opens the database, then imports the app: with the app in a chunk of its
        // own, its packages load while the embedded database starts (decision 026).
        splitting: true,
        platform: "node",
        format: "esm",
        target: "node20",
        sourcemap: true,
        external,
        logLevel: "warning",
        banner: {
          js: "import { createRequire as __cohortRequire } from 'node:module'; const require = __cohortRequire(import.meta.url);",
        },
      });
    },
  },
};

export async function buildIfStale({ force = false, only } = {}) {
  for (const [name, target] of Object.entries(targets)) {
    if (only && !only.includes(name)) continue;
    const stampFile = path.join(root, target.stamp);
    const print = fingerprint(target.inputs);
    if (!force && existsSync(stampFile) && readFileSync(stampFile, "utf8") === print) continue;
    const started = Date.now();
    process.stdout.write(`Building ${name}…`);
    await target.build();
    writeFileSync(stampFile, print);
    process.stdout.write(` done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await buildIfStale({ force: process.argv.includes("--force") });
}
