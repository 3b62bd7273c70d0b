import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findLoops } from "../../../../test-support/import-loops";

/**
 * The web app's rooms (decision 074), held like the server's modules: a feature imports the
 * shared layers below it (`lib/`, `content/`, `components/`, `auth/`), the contracts, and only
 * the features it names here. What two features share moves down into `components/` or
 * `lib/`; it never makes one feature import the other back.
 */
const FEATURES = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.dirname(FEATURES);

/** Each feature's allowed features. A feature missing here may import no other feature. */
const ALLOWED: Record<string, readonly string[]> = {
  admin: ["billing"],
  billing: ["credits"],
  blog: ["errors"],
  chat: [
    "agreement",
    "artifacts",
    "documents",
    "export",
    "memory",
    "share",
    "templates",
    "workspaces",
  ],
  cochat: ["artifacts", "chat"],
  dashboard: ["chat", "export", "shell", "workspaces"],
  documents: ["workspaces"],
  export: ["workspaces"],
  landing: ["pricing"],
  login: ["agreement", "workspaces"],
  memory: ["workspaces"],
  pricing: ["billing"],
  settings: ["chat", "mcp-servers", "memory", "templates", "workspaces"],
  "shared-session": ["artifacts", "chat", "share"],
  shell: ["agreement", "credits", "workspaces"],
  templates: ["documents", "workspaces"],
  "use-cases": ["compare", "solutions"],
  workspaces: ["agreement", "billing", "credits", "mcp-servers", "share"],
};

/**
 * Imports that break the rule today, each with the seam that will end it (decision 074).
 * At most two: a third means the next shared piece must move down instead.
 */
const EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [
  {
    from: "features/artifacts",
    to: "features/chat/run-state.ts",
    why: "artifacts are collected from the chat's run state; the chat should hand them its texts",
  },
  {
    from: "features/billing",
    to: "features/chat/chat-api.ts",
    why: "model names come from the model catalogue, which still lives in the chat's API",
  },
];

/** What each shared layer may import: only itself and the layers listed (never a feature). */
const LAYERS: Record<string, readonly string[]> = {
  lib: [],
  content: [],
  components: ["lib", "content"],
  auth: ["lib", "content", "components"],
};

/** `from "x"` (imports, type imports, re-exports), `import("x")` and a bare `import "x"`. */
const SPECIFIER =
  /\bfrom\s+["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s+["']([^"']+)["']/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(dir, file));
}

/** The room a file of src is in: `features/<name>`, a top folder (`lib`, `auth`…), or the file. */
function roomOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts[0] === "features" && parts.length > 2) return `features/${parts[1]}`;
  return parts.length > 1 ? (parts[0] as string) : path.relative(SRC, file);
}

interface Import {
  file: string;
  target: string;
  to: string;
}

/** Every relative import from one room into another, with its file and its target. */
function crossings(files: readonly string[]): Import[] {
  const found: Import[] = [];
  for (const file of files) {
    const from = roomOf(file);
    for (const match of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? "";
      if (!specifier.startsWith(".")) continue;
      const resolved = path.resolve(path.dirname(file), specifier);
      const to = roomOf(resolved);
      if (to === from) continue;
      found.push({ file: path.relative(SRC, file), target: path.relative(SRC, resolved), to });
    }
  }
  return found;
}

const matches = (item: Import, exception: (typeof EXCEPTIONS)[number]) =>
  roomOf(path.join(SRC, item.file)) === exception.from &&
  item.target.replace(/\.tsx?$/, "") === exception.to.replace(/\.tsx?$/, "");

const isException = (item: Import) => EXCEPTIONS.some((exception) => matches(item, exception));

/** Every loop in a graph, each as the path that closes it (a → b → … → a). */
const loopsOf = (graph: Record<string, readonly string[]>) =>
  findLoops(Object.keys(graph), (node) => graph[node] ?? []);

const featureNames = readdirSync(FEATURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe("web feature boundaries", () => {
  const featureImports = crossings(sourceFiles(FEATURES));

  it("finds the imports between rooms (the check itself works)", () => {
    expect(featureImports).toContainEqual(
      expect.objectContaining({ file: "features/chat/chat-page.tsx", to: "features/workspaces" }),
    );
    expect(featureImports.some((item) => item.to === "lib")).toBe(true);
    expect(loopsOf({ a: ["b"], b: ["a"] })).toEqual([["a", "b", "a"]]);
    expect(loopsOf({ a: ["b"], b: ["c"], c: ["a"] })).toEqual([["a", "b", "c", "a"]]);
    expect(loopsOf({ a: ["b"], b: [] })).toEqual([]);
  });

  it("has each feature import only the shared layers and the features it names", () => {
    const shared = new Set(Object.keys(LAYERS));
    const stray = featureImports
      .filter((item) => {
        if (shared.has(item.to)) return false;
        const from = roomOf(path.join(SRC, item.file)).slice("features/".length);
        const allowed = ALLOWED[from] ?? [];
        if (item.to.startsWith("features/") && allowed.includes(item.to.slice(9))) return false;
        return !isException(item);
      })
      .map((item) => `${item.file} → ${item.target}`);
    expect(stray).toEqual([]);
  });

  it("names no feature that does not exist, and no permission that is not used", () => {
    const used = new Set(
      featureImports
        .filter((item) => !isException(item))
        .map((item) => `${roomOf(path.join(SRC, item.file))} → ${item.to}`),
    );
    const named = Object.entries(ALLOWED).flatMap(([from, tos]) =>
      [from, ...tos].filter((name) => !featureNames.includes(name)),
    );
    expect(named).toEqual([]);
    const unused = Object.entries(ALLOWED).flatMap(([from, tos]) =>
      tos
        .filter((to) => !used.has(`features/${from} → features/${to}`))
        .map((to) => `${from} → ${to}`),
    );
    expect(unused).toEqual([]);
  });

  it("lets no two features import each other, directly or around a loop", () => {
    expect(loopsOf(ALLOWED).map((loop) => loop.join(" → "))).toEqual([]);
  });

  it("keeps its exceptions few, and each still needed", () => {
    expect(EXCEPTIONS.length).toBeLessThanOrEqual(2);
    const stale = EXCEPTIONS.filter(
      (exception) => !featureImports.some((item) => matches(item, exception)),
    ).map((exception) => `${exception.from} → ${exception.to} (${exception.why})`);
    expect(stale).toEqual([]);
  });

  it("keeps the shared layers below the features", () => {
    const upward = Object.entries(LAYERS).flatMap(([layer, below]) =>
      crossings(sourceFiles(path.join(SRC, layer)))
        .filter((item) => !below.includes(item.to))
        .map((item) => `${item.file} → ${item.target}`),
    );
    expect(upward).toEqual([]);
  });
});
