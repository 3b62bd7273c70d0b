/**
 * The one Markdown reader, for model output and agreement texts alike: the web app renders
 * its tree as React elements, the server draws it into PDF exports. Headings, paragraphs,
 * nested lists, block quotes, fenced code, tables, rules, and inline bold, italic,
 * strikethrough, code, links and images. It returns a tree, so no HTML in the text ever
 * becomes markup: `<script>` stays the visible text "<script>". It is forgiving with
 * half-written input, because it re-reads streaming text on every delta (an open fence runs
 * to the end).
 */

import { isGeneratedImagePath } from "./images";
export type Inline =
  | { type: "text"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "del"; children: Inline[] }
  | { type: "code"; text: string }
  | { type: "break" }
  | { type: "link"; href: string; children: Inline[] }
  | { type: "image"; src: string; alt: string };

export type Align = "left" | "center" | "right" | null;

export type Block =
  | { type: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: "paragraph"; children: Inline[] }
  | { type: "code"; lang: string; text: string; closed: boolean }
  | { type: "quote"; children: Block[] }
  | { type: "list"; ordered: boolean; start: number; tight: boolean; items: Block[][] }
  | { type: "table"; align: Align[]; head: Inline[][]; rows: Inline[][][] }
  | { type: "rule" };

/**
 * Links may only lead to web pages, mail, or a path on this site (an agreement links the
 * privacy policy as `/privacy`): no javascript:, data:, or `//host` and `/\host`, which
 * browsers read as another site.
 */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^(https?:\/\/|mailto:)\S+$/i.test(trimmed)) return trimmed;
  return /^\/(?![/\\])\S*$/.test(trimmed) ? trimmed : null;
}

/**
 * Images from the web, inline raster/SVG data (an <img> never runs an SVG's scripts), or an
 * image a model made, served by Cohort itself (decision 064).
 */
export function safeImageSrc(src: string): string | null {
  const trimmed = src.trim();
  if (/^https?:\/\/\S+$/i.test(trimmed)) return trimmed;
  if (isGeneratedImagePath(trimmed)) return trimmed;
  if (/^data:image\/(png|gif|jpe?g|webp|svg\+xml)[;,]/i.test(trimmed)) return trimmed;
  return null;
}

// ---------------------------------------------------------------------------------------
// Inline
// ---------------------------------------------------------------------------------------

const ESCAPABLE = /[\\`*_{}[\]()#+\-.!|~<>"]/;
const SPECIAL = /[\\`*_~[!<h\n]/;

function findClosing(source: string, from: number, marker: string): number {
  let i = from;
  while (i < source.length) {
    const found = source.indexOf(marker, i);
    if (found < 0) return -1;
    if (source[found - 1] !== "\\" && !/\s/.test(source[found - 1] ?? "")) return found;
    i = found + 1;
  }
  return -1;
}

/** The `](href "title")` part after a link text; returns the href and where it ends. */
function readDestination(source: string, open: number): { href: string; end: number } | null {
  if (source[open] !== "(") return null;
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (ch === "(") depth++;
    else if (ch === ")") {
      depth--;
      if (depth === 0) {
        const inner = source.slice(open + 1, i).trim();
        const href = (/^<([^>]*)>/.exec(inner)?.[1] ?? inner.split(/\s+/)[0] ?? "").trim();
        return { href, end: i + 1 };
      }
    } else if (ch === "\n" && source[i + 1] === "\n") return null;
  }
  return null;
}

/** The matching `]` of a link text starting after `[`, allowing nested brackets. */
function closingBracket(source: string, from: number): number {
  let depth = 1;
  for (let i = from; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (ch === "`") {
      const end = source.indexOf("`", i + 1);
      if (end > 0) i = end;
      continue;
    }
    if (ch === "[") depth++;
    else if (ch === "]" && --depth === 0) return i;
  }
  return -1;
}

export function parseInline(source: string): Inline[] {
  const out: Inline[] = [];
  let text = "";
  const flush = () => {
    if (text) out.push({ type: "text", text });
    text = "";
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i] as string;
    if (!SPECIAL.test(ch)) {
      text += ch;
      i++;
      continue;
    }
    const rest = source.slice(i);

    if (ch === "\\" && ESCAPABLE.test(source[i + 1] ?? "")) {
      text += source[i + 1];
      i += 2;
      continue;
    }
    if (ch === "\n") {
      // Model output means its line breaks; a trailing backslash or two spaces too.
      text = text.replace(/ +$/, "");
      flush();
      out.push({ type: "break" });
      i++;
      continue;
    }
    if (ch === "`") {
      const ticks = /^`+/.exec(rest)?.[0] ?? "`";
      const end = source.indexOf(ticks, i + ticks.length);
      if (end > 0) {
        flush();
        const inner = source.slice(i + ticks.length, end).replace(/\n/g, " ");
        out.push({
          type: "code",
          text: /^ .* $/.test(inner) && inner.trim() ? inner.slice(1, -1) : inner,
        });
        i = end + ticks.length;
        continue;
      }
      text += ticks;
      i += ticks.length;
      continue;
    }
    if (ch === "!" && source[i + 1] === "[") {
      const close = closingBracket(source, i + 2);
      const dest = close > 0 ? readDestination(source, close + 1) : null;
      if (close > 0 && dest) {
        flush();
        const alt = source.slice(i + 2, close);
        const src = safeImageSrc(dest.href);
        if (src) out.push({ type: "image", src, alt });
        else if (alt) out.push({ type: "text", text: alt });
        i = dest.end;
        continue;
      }
    }
    if (ch === "[") {
      const close = closingBracket(source, i + 1);
      const dest = close > 0 ? readDestination(source, close + 1) : null;
      if (close > 0 && dest) {
        flush();
        const children = parseInline(source.slice(i + 1, close));
        const href = safeHref(dest.href);
        if (href) out.push({ type: "link", href, children });
        else out.push(...children);
        i = dest.end;
        continue;
      }
    }
    if (ch === "<") {
      const auto = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(rest);
      if (auto?.[1]) {
        flush();
        out.push({ type: "link", href: auto[1], children: [{ type: "text", text: auto[1] }] });
        i += auto[0].length;
        continue;
      }
    }
    if (ch === "h" && !/\w/.test(source[i - 1] ?? "")) {
      const bare = /^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"*_~]/.exec(rest);
      if (bare) {
        flush();
        out.push({ type: "link", href: bare[0], children: [{ type: "text", text: bare[0] }] });
        i += bare[0].length;
        continue;
      }
    }
    if (ch === "~" && source[i + 1] === "~") {
      const end = findClosing(source, i + 2, "~~");
      if (end > i + 2 && !/\s/.test(source[i + 2] ?? "")) {
        flush();
        out.push({ type: "del", children: parseInline(source.slice(i + 2, end)) });
        i = end + 2;
        continue;
      }
    }
    if (ch === "*" || ch === "_") {
      const double = source[i + 1] === ch;
      const marker = double ? ch + ch : ch;
      const start = i + marker.length;
      const intraword = ch === "_" && /\w/.test(source[i - 1] ?? "");
      if (!intraword && source[start] && !/\s/.test(source[start] as string)) {
        let end = findClosing(source, start, marker);
        // A single marker must not match the first half of a double one.
        while (!double && end > 0 && source[end + 1] === ch) {
          end = findClosing(source, end + 2, marker);
        }
        const closesWord = ch === "*" || !/\w/.test(source[end + marker.length] ?? "");
        if (end > start && closesWord) {
          flush();
          const children = parseInline(source.slice(start, end));
          out.push(double ? { type: "strong", children } : { type: "em", children });
          i = end + marker.length;
          continue;
        }
      }
      text += marker;
      i += marker.length;
      continue;
    }
    text += ch;
    i++;
  }
  flush();
  return out;
}

// ---------------------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------------------

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])( +|$)(.*)$/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

function indentOf(line: string): number {
  return /^ */.exec(line)?.[0].length ?? 0;
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  for (let i = 0; i < row.length; i++) {
    if (row[i] === "\\" && row[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (row[i] === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += row[i];
  }
  cells.push(cell.trim());
  return cells;
}

function startsBlock(line: string): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    LIST_ITEM.test(line)
  );
}

function parseLines(lines: string[], ends?: number[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = (lines[i] as string).replace(/\t/g, "    ");
    if (isBlank(line)) {
      i++;
      continue;
    }
    const read = readBlock(lines, i, line);
    blocks.push(read.block);
    i = read.next;
    ends?.push(i);
  }
  return blocks;
}

/**
 * The block that starts at `lines[i]` (not blank; `line` is it with tabs expanded) and the
 * line after it. It looks at no line before `i`, and at no line after the one it stops at:
 * what streaming reads (`createMarkdownReader`) relies on.
 */
function readBlock(lines: string[], from: number, line: string): { block: Block; next: number } {
  let i = from;
  const fence = FENCE.exec(line);
  if (fence?.[1]) {
    const marker = fence[1];
    const indent = indentOf(line);
    const body: string[] = [];
    let closed = false;
    i++;
    while (i < lines.length) {
      const next = lines[i] as string;
      const trimmed = next.trim();
      if (trimmed.startsWith(marker[0] as string) && /^(`{3,}|~{3,})$/.test(trimmed)) {
        if (trimmed.length >= marker.length && trimmed[0] === marker[0]) {
          closed = true;
          i++;
          break;
        }
      }
      body.push(next.slice(Math.min(indent, indentOf(next))));
      i++;
    }
    return {
      block: { type: "code", lang: (fence[2] ?? "").toLowerCase(), text: body.join("\n"), closed },
      next: i,
    };
  }

  const heading = HEADING.exec(line);
  if (heading?.[1]) {
    return {
      block: {
        type: "heading",
        level: heading[1].length as 1 | 2 | 3 | 4 | 5 | 6,
        children: parseInline(heading[2] ?? ""),
      },
      next: i + 1,
    };
  }

  if (RULE.test(line)) return { block: { type: "rule" }, next: i + 1 };

  if (QUOTE.test(line)) {
    const inner: string[] = [];
    while (i < lines.length && !isBlank(lines[i] as string)) {
      const quoted = QUOTE.exec(lines[i] as string);
      inner.push(quoted ? (quoted[1] ?? "") : (lines[i] as string));
      i++;
    }
    return { block: { type: "quote", children: parseLines(inner) }, next: i };
  }

  if (LIST_ITEM.test(line)) return parseList(lines, i);

  const next = lines[i + 1];
  if (
    line.includes("|") &&
    next !== undefined &&
    TABLE_DELIMITER.test(next) &&
    next.includes("-")
  ) {
    const head = splitRow(line);
    const align: Align[] = splitRow(next).map((cell) => {
      const left = cell.startsWith(":");
      const right = cell.endsWith(":");
      return left && right ? "center" : right ? "right" : left ? "left" : null;
    });
    const rows: Inline[][][] = [];
    i += 2;
    while (i < lines.length && !isBlank(lines[i] as string) && (lines[i] as string).includes("|")) {
      const cells = splitRow(lines[i] as string);
      rows.push(head.map((_, c) => parseInline(cells[c] ?? "")));
      i++;
    }
    return {
      block: {
        type: "table",
        align: head.map((_, c) => align[c] ?? null),
        head: head.map(parseInline),
        rows,
      },
      next: i,
    };
  }

  const paragraph: string[] = [line.trim()];
  i++;
  while (i < lines.length) {
    const following = lines[i] as string;
    if (isBlank(following) || startsBlock(following)) break;
    paragraph.push(following.trim());
    i++;
  }
  return { block: { type: "paragraph", children: parseInline(paragraph.join("\n")) }, next: i };
}

function parseList(lines: string[], from: number): { block: Block; next: number } {
  // Tabs expanded, as the caller saw the line ("-\tx" is an item): read raw, it was none.
  const first = LIST_ITEM.exec((lines[from] as string).replace(/\t/g, "    ")) as RegExpExecArray;
  const baseIndent = (first[1] ?? "").length;
  const ordered = /\d/.test(first[2] ?? "");
  const start = ordered ? Number.parseInt(first[2] ?? "1", 10) : 1;
  const items: string[][] = [];
  let tight = true;
  let i = from;
  let current: string[] | null = null;
  let contentIndent = 0;
  let sawBlank = false;

  while (i < lines.length) {
    const line = (lines[i] as string).replace(/\t/g, "    ");
    if (isBlank(line)) {
      sawBlank = true;
      current?.push("");
      i++;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    const indent = indentOf(line);
    if (item && indent <= baseIndent + 1 && /\d/.test(item[2] ?? "") === ordered) {
      if (current && sawBlank) tight = false;
      current = [item[4] ?? ""];
      items.push(current);
      contentIndent =
        indent + (item[2] ?? "").length + Math.max(1, Math.min((item[3] ?? " ").length, 4));
      sawBlank = false;
      i++;
      continue;
    }
    if (!current) break;
    if (indent >= contentIndent || (indent > baseIndent && item)) {
      if (sawBlank) tight = false;
      current.push(line.slice(Math.min(contentIndent, indent)));
      sawBlank = false;
      i++;
      continue;
    }
    // A lazy continuation of the item's paragraph, unless something else begins.
    if (!sawBlank && !startsBlock(line)) {
      current.push(line.trim());
      i++;
      continue;
    }
    break;
  }
  // Blank lines at the end of the last item belong to what follows.
  const last = items.at(-1);
  while (last && last.length > 0 && isBlank(last.at(-1) as string)) last.pop();
  return {
    block: { type: "list", ordered, start, tight, items: items.map((item) => parseLines(item)) },
    next: i,
  };
}

export function parseMarkdown(source: string): Block[] {
  return parseLines(source.replace(/\r\n?/g, "\n").split("\n"));
}

/**
 * A reader for one text that grows at its end while it streams: `read(text)` equals
 * `parseMarkdown(text)`, but the blocks that more text can no longer change are read once
 * and kept (the same objects, so a view can skip drawing them again); each call reads only
 * from the last of those on. A block is kept when every line looked at to end it is whole
 * (a newline follows it), and the kept part is reused only while the text still starts with
 * those lines — so any text, grown or not, reads the same as `parseMarkdown` would.
 */
export function createMarkdownReader(): (source: string) => Block[] {
  /** The text of the kept blocks' lines and of the line that ended the last one. */
  let seen = "";
  /** Where the lines after the kept blocks start, in `seen`. */
  let restAt = 0;
  let kept: Block[] = [];
  return (source) => {
    const text = source.replace(/\r\n?/g, "\n");
    if (!text.startsWith(seen)) {
      seen = "";
      restAt = 0;
      kept = [];
    }
    const lines = text.slice(restAt).split("\n");
    const ends: number[] = [];
    const blocks = parseLines(lines, ends);
    const all = kept.length === 0 ? blocks : kept.concat(blocks);
    // A block ending at line `end` looked at lines up to `end`: whole when it is not the last.
    let settled = 0;
    while (settled < blocks.length && (ends[settled] as number) < lines.length - 1) settled++;
    if (settled > 0) {
      const end = ends[settled - 1] as number;
      let at = restAt;
      for (let l = 0; l < end; l++) at += (lines[l] as string).length + 1;
      seen = text.slice(0, at + (lines[end] as string).length + 1);
      restAt = at;
      kept = all.slice(0, kept.length + settled);
    }
    return all;
  };
}
