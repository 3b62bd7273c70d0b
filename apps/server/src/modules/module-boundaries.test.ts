import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findLoops } from "../../../../test-support/import-loops";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MODULES = path.join(SRC, "modules");

/** `from "x"` (imports, type imports, re-exports) and `import("x")`, in code files only. */
const SPECIFIER = /\bfrom\s+["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => path.join(dir, file));
}

/** The area of src a file belongs to: `modules/<name>`, or its top folder (`platform`, `db`). */
function areaOf(file: string): string | null {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts[0] === "..") return null;
  if (parts[0] === "modules") return parts.length > 2 ? `modules/${parts[1]}` : null;
  return parts.length > 1 ? (parts[0] ?? null) : null;
}

/** Which other areas each area's files import, with one importing file per edge as evidence. */
function importGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of [...sourceFiles(MODULES), ...sourceFiles(path.join(SRC, "platform"))]) {
    const from = areaOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const match of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? "";
      if (!specifier.startsWith(".")) continue;
      const to = areaOf(path.resolve(path.dirname(file), specifier));
      if (to && to !== from && !edges.has(to)) edges.set(to, path.relative(SRC, file));
    }
  }
  return graph;
}

/** Every loop in the graph, each as the path that closes it (a → b → … → a). */
const loopsOf = (graph: Map<string, Map<string, string>>) =>
  findLoops(graph.keys(), (node) => graph.get(node)?.keys() ?? []);

describe("module boundaries", () => {
  const graph = importGraph();

  it("finds the imports between modules (the check itself works)", () => {
    expect(graph.get("modules/billing")?.has("modules/credits")).toBe(true);
    const edge = (to: string) => new Map([[to, `${to}.ts`]]);
    expect(
      loopsOf(
        new Map([
          ["a", edge("b")],
          ["b", edge("a")],
        ]),
      ),
    ).toEqual([["a", "b", "a"]]);
    expect(
      loopsOf(
        new Map([
          ["a", edge("b")],
          ["b", edge("c")],
          ["c", edge("a")],
        ]),
      ),
    ).toEqual([["a", "b", "c", "a"]]);
    expect(
      loopsOf(
        new Map([
          ["a", edge("b")],
          ["b", new Map()],
        ]),
      ),
    ).toEqual([]);
  });

  it("has no module that imports a module importing it back, directly or around a loop", () => {
    // A loop means neither module can change or be tested alone; pass what one needs from
    // the other in at registration (app.ts) instead.
    const loops = loopsOf(graph).map((loop) =>
      loop
        .slice(1)
        .map((to, i) => `${loop[i]} → ${to} (${graph.get(loop[i] as string)?.get(to)})`)
        .join(", "),
    );
    expect(loops).toEqual([]);
  });

  it("keeps the platform below the modules", () => {
    const upward = [...(graph.get("platform") ?? new Map<string, string>())].filter(([to]) =>
      to.startsWith("modules/"),
    );
    expect(upward).toEqual([]);
  });
});
