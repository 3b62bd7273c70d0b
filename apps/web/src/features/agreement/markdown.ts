/**
 * A small Markdown reader for agreement texts: headings, paragraphs, lists, rules, and inline
 * bold, italic, code and links. It produces a tree that React renders as elements, so no
 * HTML from the text ever reaches the page; anything it does not know stays plain text.
 */
export type Inline =
  | { type: "text"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "code"; text: string }
  | { type: "link"; href: string; children: Inline[] };

export type Block =
  | { type: "heading"; level: 1 | 2 | 3 | 4; children: Inline[] }
  | { type: "paragraph"; children: Inline[] }
  | { type: "list"; ordered: boolean; items: Inline[][] }
  | { type: "rule" };

interface ListDraft {
  ordered: boolean;
  items: string[];
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;

/** Links may only lead to web pages, mail, or paths on this site. */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^(https?:|mailto:)/i.test(trimmed)) return trimmed;
  if (trimmed.startsWith("/") && !trimmed.startsWith("//")) return trimmed;
  if (trimmed.startsWith("#")) return trimmed;
  return null;
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
    const rest = source.slice(i);
    const strong = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest);
    if (strong?.[2]) {
      flush();
      out.push({ type: "strong", children: parseInline(strong[2]) });
      i += strong[0].length;
      continue;
    }
    const em = /^(\*|_)(?=\S)([\s\S]*?\S)\1(?!\1)/.exec(rest);
    if (em?.[2] && (em[1] === "*" || !/\w/.test(source[i - 1] ?? ""))) {
      flush();
      out.push({ type: "em", children: parseInline(em[2]) });
      i += em[0].length;
      continue;
    }
    const code = /^`([^`]+)`/.exec(rest);
    if (code?.[1]) {
      flush();
      out.push({ type: "code", text: code[1] });
      i += code[0].length;
      continue;
    }
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest);
    if (link?.[1] && link[2]) {
      const href = safeHref(link[2]);
      flush();
      if (href) out.push({ type: "link", href, children: parseInline(link[1]) });
      else out.push(...parseInline(link[1]));
      i += link[0].length;
      continue;
    }
    text += source[i];
    i += 1;
  }
  flush();
  return out;
}

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  let paragraph: string[] = [];
  // Held in an object: TypeScript does not see the closures below reassign a plain `let`.
  const open: { list: ListDraft | null } = { list: null };

  const endParagraph = () => {
    if (paragraph.length > 0) {
      blocks.push({ type: "paragraph", children: parseInline(paragraph.join(" ")) });
    }
    paragraph = [];
  };
  const endList = () => {
    if (open.list) {
      blocks.push({
        type: "list",
        ordered: open.list.ordered,
        items: open.list.items.map(parseInline),
      });
    }
    open.list = null;
  };

  for (const raw of lines) {
    const line = raw.trimEnd();
    if (line.trim() === "") {
      endParagraph();
      endList();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading?.[1]) {
      endParagraph();
      endList();
      const level = Math.min(heading[1].length, 4) as 1 | 2 | 3 | 4;
      blocks.push({ type: "heading", level, children: parseInline(heading[2] ?? "") });
      continue;
    }
    if (RULE.test(line)) {
      endParagraph();
      endList();
      blocks.push({ type: "rule" });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet?.[1] ?? numbered?.[1];
    if (item !== undefined) {
      endParagraph();
      const ordered = numbered !== null;
      if (open.list && open.list.ordered === ordered) {
        open.list.items.push(item);
      } else {
        endList();
        open.list = { ordered, items: [item] };
      }
      continue;
    }
    if (open.list && /^\s+\S/.test(raw) && open.list.items.length > 0) {
      // An indented line continues the previous list item.
      const last = open.list.items.length - 1;
      open.list.items[last] = `${open.list.items[last]} ${line.trim()}`;
      continue;
    }
    endList();
    paragraph.push(line.trim());
  }
  endParagraph();
  endList();
  return blocks;
}
