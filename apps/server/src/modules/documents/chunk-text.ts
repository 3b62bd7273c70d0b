import { HIGHLIGHT_END, HIGHLIGHT_START } from "@cohort/contracts";

/** A run of text from one place of a document: one page of a PDF, one section of a DOCX. */
export interface TextBlock {
  page: number | null;
  section: string | null;
  text: string;
}

/**
 * Chunks are 800–1,200 characters (decision 036): long enough to carry a claim with its
 * context, short enough that several fit an agent's context window. A chunk never spans two
 * pages or sections, so each one cites exactly one place.
 */
export const CHUNK_MIN = 800;
export const CHUNK_MAX = 1200;

const MARKERS = new RegExp(`[${HIGHLIGHT_START}${HIGHLIGHT_END}\\u0000]`, "g");

/** Removes what must not reach the index (highlight markers, NUL) and tidies whitespace. */
export function cleanText(text: string): string {
  return text
    .replace(MARKERS, "")
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Cuts a paragraph longer than CHUNK_MAX at sentence ends, else at spaces, else hard. */
function splitLong(paragraph: string): string[] {
  const pieces: string[] = [];
  let rest = paragraph;
  while (rest.length > CHUNK_MAX) {
    const window = rest.slice(0, CHUNK_MAX);
    const floor = CHUNK_MIN / 2;
    let cut = Math.max(
      window.lastIndexOf(". "),
      window.lastIndexOf("! "),
      window.lastIndexOf("? "),
      window.lastIndexOf("\n"),
    );
    if (cut >= floor) cut += 1;
    else cut = window.lastIndexOf(" ");
    if (cut < floor) cut = CHUNK_MAX;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}

/** Splits each block into chunks of CHUNK_MIN..CHUNK_MAX characters, paragraphs kept whole. */
export function chunkBlocks(blocks: readonly TextBlock[]): TextBlock[] {
  const chunks: TextBlock[] = [];
  for (const block of blocks) {
    const text = cleanText(block.text);
    if (text.length === 0) continue;
    const paragraphs = text.split(/\n\s*\n/).flatMap((p) => splitLong(p.trim()));
    let current = "";
    const flush = () => {
      if (current.length > 0)
        chunks.push({ page: block.page, section: block.section, text: current });
      current = "";
    };
    for (const paragraph of paragraphs) {
      if (paragraph.length === 0) continue;
      if (current.length > 0 && current.length + 2 + paragraph.length > CHUNK_MAX) flush();
      current = current.length > 0 ? `${current}\n\n${paragraph}` : paragraph;
      if (current.length >= CHUNK_MIN) flush();
    }
    flush();
  }
  return chunks;
}

const HEADING = /^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;
const FENCE = /^ {0,3}(```|~~~)/;

/** Markdown into blocks per heading (headings inside code fences do not count). */
export function markdownBlocks(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let section: string | null = null;
  let lines: string[] = [];
  let fenced = false;
  const flush = () => {
    if (lines.some((line) => line.trim().length > 0)) {
      blocks.push({ page: null, section, text: lines.join("\n") });
    }
    lines = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (FENCE.test(line)) fenced = !fenced;
    const heading = fenced ? null : HEADING.exec(line);
    if (heading) {
      flush();
      section = (heading[2] ?? "").trim().slice(0, 200) || null;
    }
    lines.push(line);
  }
  flush();
  return blocks;
}
