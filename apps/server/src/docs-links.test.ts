import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The repository explains itself: every relative link in its Markdown resolves, every
 * decision note that code or docs cite exists, the sections they name exist, and every note
 * carries a status line (docs/conventions.md, "Decision notes").
 */

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SKIP = new Set(["node_modules", "dist", "data", ".git", "screenshots", "firebase-tools"]);
const TEXT = /\.(ts|tsx|mts|mjs|js|md|json|yaml|yml|css|html)$|^Dockerfile$|^run$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith(".data-")) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (TEXT.test(name)) out.push(full);
  }
  return out;
}

const TOP = ["apps", "packages", "docs", "bench", "e2e", "faults", "scripts", "test-support"];
const files = [
  ...TOP.flatMap((dir) => walk(path.join(ROOT, dir))),
  ...["README.md", "Dockerfile", ".ci/run", "vitest.config.ts", "package.json"].map((f) =>
    path.join(ROOT, f),
  ),
];
const markdown = files.filter((file) => file.endsWith(".md"));
const rel = (file: string) => path.relative(ROOT, file);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function headings(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]!);
}

describe("documentation links", () => {
  it("every relative link in the README, docs/ and bench/ resolves, anchors included", () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [filePart, anchor] = target.split("#") as [string, string | undefined];
        const resolved = filePart ? path.resolve(path.dirname(file), filePart) : file;
        if (!existsSync(resolved)) {
          broken.push(`${rel(file)}: ${target}`);
        } else if (anchor && resolved.endsWith(".md")) {
          if (!headings(resolved).some((h) => anchorOf(h) === anchor))
            broken.push(`${rel(file)}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("every docs/decisions/NNN-*.md that code or docs cite exists", () => {
    const missing: string[] = [];
    for (const file of files) {
      for (const [cited] of readFileSync(file, "utf8").matchAll(
        /docs\/decisions\/\d{3}-[\w.-]+?\.md/g,
      )) {
        if (!existsSync(path.join(ROOT, cited))) missing.push(`${rel(file)}: ${cited}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every section cited as (docs/<file>.md, "Section") exists in that file', () => {
    const missing: string[] = [];
    for (const file of files) {
      for (const [, doc, section] of readFileSync(file, "utf8").matchAll(
        /\b(docs\/[\w/-]+\.md),\s+"([^"]+)"/g,
      )) {
        const target = path.join(ROOT, doc!);
        if (!existsSync(target) || !headings(target).includes(section!))
          missing.push(`${rel(file)}: ${doc}, "${section}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("nothing points outside the repository for its architecture or style", () => {
    const outside = files.filter((file) =>
      /\.\.\/shared\/|\b(ARCHITECTURE|STYLE)\.md\b/.test(readFileSync(file, "utf8")),
    );
    expect(outside.map(rel)).toEqual([]);
  });

  it("every decision note starts with its title and a status line", () => {
    const dir = path.join(ROOT, "docs/decisions");
    const notes = readdirSync(dir).filter((name) => /^\d{3}-.+\.md$/.test(name));
    const numbers = new Set(notes.map((name) => name.slice(0, 3)));
    const wrong: string[] = [];
    for (const name of notes) {
      const [title, blank, status] = readFileSync(path.join(dir, name), "utf8").split("\n");
      const superseded = /superseded by (\d{3})/i.exec(status ?? "");
      if (!title?.startsWith(`# ${name.slice(0, 3)}`) || blank !== "") wrong.push(name);
      else if (!/^Status: (Accepted|Superseded by \d{3})\b/.test(status ?? "")) wrong.push(name);
      else if (superseded && !numbers.has(superseded[1]!))
        wrong.push(`${name} (no note ${superseded[1]})`);
    }
    expect(notes.length).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });
});
