import type { TDocumentKind } from "@cohort/contracts";
import {
  CHUNK_MAX,
  CHUNK_MIN,
  chunkBlocks,
  cleanText,
  markdownBlocks,
  type TextBlock,
} from "./chunk-text";
import { checkDocxZip } from "./docx-zip-guard";
import { checkPdfStreams } from "./pdf-stream-guard";

export interface ExtractionLimits {
  maxPages: number;
  /** A DOCX's parts, and a PDF's streams, may expand to this much in total. */
  maxUnzippedBytes: number;
  /** A document with more text than this (characters) is refused, not half-read. */
  maxTextChars: number;
}

export type Extraction =
  | { ok: true; pages: number | null; chunks: TextBlock[] }
  | { ok: false; reason: string };

/** Thrown for a document that cannot be read; its message is shown to the user. */
class Unreadable extends Error {}

/**
 * Extracts a document's text into chunks. Runs in the extraction worker (extraction-worker.ts),
 * never on the server's thread: parsers of untrusted files get a time and memory limit there.
 */
export async function extractText(
  kind: TDocumentKind,
  bytes: Uint8Array,
  limits: ExtractionLimits,
): Promise<Extraction> {
  try {
    const { pages, blocks } = await extractBlocks(kind, bytes, limits);
    let length = 0;
    for (const block of blocks) length += block.text.length;
    // A CSV's chunks repeat its header row: they may be longer than the file, and fine.
    if (kind !== "csv" && length > limits.maxTextChars) throw tooMuchText(limits.maxTextChars);
    const chunks = kind === "csv" ? blocks : chunkBlocks(blocks);
    if (chunks.length === 0) {
      return {
        ok: false,
        reason:
          kind === "pdf"
            ? "The PDF has no text to read (it may be scanned images; text recognition is not supported)."
            : "The document has no text to read.",
      };
    }
    return { ok: true, pages, chunks };
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, reason: error.message };
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `The document could not be read: ${detail.slice(0, 300)}` };
  }
}

async function extractBlocks(
  kind: TDocumentKind,
  bytes: Uint8Array,
  limits: ExtractionLimits,
): Promise<{ pages: number | null; blocks: TextBlock[] }> {
  switch (kind) {
    case "pdf":
      return pdfBlocks(bytes, limits);
    case "docx":
      return { pages: null, blocks: await docxBlocks(Buffer.from(bytes), limits.maxUnzippedBytes) };
    case "csv":
      return { pages: null, blocks: await csvChunks(utf8(bytes)) };
    case "markdown":
      return { pages: null, blocks: markdownBlocks(utf8(bytes)) };
    case "json":
      return {
        pages: null,
        blocks: [{ page: null, section: null, text: prettyJson(utf8(bytes)) }],
      };
    case "text":
    case "code":
      return { pages: null, blocks: [{ page: null, section: null, text: utf8(bytes) }] };
  }
}

function utf8(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
}

/** Pretty-printed, so the chunker can cut between lines; invalid JSON is kept as it is. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function tooMuchText(maxTextChars: number): Unreadable {
  return new Unreadable(
    `The document has more than ${maxTextChars.toLocaleString("en-US")} characters of text; at most that many are read.`,
  );
}

async function pdfBlocks(
  bytes: Uint8Array,
  limits: ExtractionLimits,
): Promise<{ pages: number; blocks: TextBlock[] }> {
  const { maxPages } = limits;
  // Before pdfjs: it inflates streams outside the heap the worker's limit counts (050).
  const refusal = await checkPdfStreams(bytes, limits.maxUnzippedBytes);
  if (refusal) throw new Unreadable(refusal);
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  let pdf: Awaited<ReturnType<typeof getDocument>["promise"]>;
  try {
    pdf = await getDocument({
      data: bytes,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === "PasswordException") throw new Unreadable("The PDF is password-protected.");
    throw new Unreadable("The file is not a readable PDF.");
  }
  try {
    if (pdf.numPages > maxPages) {
      throw new Unreadable(
        `The PDF has ${pdf.numPages} pages; at most ${maxPages} pages are read.`,
      );
    }
    const blocks: TextBlock[] = [];
    let length = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        text += item.str + (item.hasEOL ? "\n" : "");
      }
      page.cleanup();
      length += text.length;
      if (length > limits.maxTextChars) throw tooMuchText(limits.maxTextChars);
      blocks.push({ page: number, section: null, text });
    }
    return { pages: pdf.numPages, blocks };
  } finally {
    await pdf.destroy();
  }
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

function htmlToText(html: string): string {
  return html
    .replace(/<\/(p|li|tr|table|ul|ol|h[1-6]|blockquote)>/g, "\n\n")
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/<\/t[dh]>/g, "\t")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** DOCX through mammoth's HTML (its headings become sections), after the zip-bomb check. */
async function docxBlocks(bytes: Buffer, maxUnzippedBytes: number): Promise<TextBlock[]> {
  const refusal = checkDocxZip(bytes, maxUnzippedBytes);
  if (refusal) throw new Unreadable(refusal);
  const { default: mammoth } = await import("mammoth");
  const { value: html } = await mammoth.convertToHtml({ buffer: bytes });
  const blocks: TextBlock[] = [];
  const heading = /<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>/g;
  let section: string | null = null;
  let from = 0;
  for (const match of html.matchAll(heading)) {
    blocks.push({ page: null, section, text: htmlToText(html.slice(from, match.index)) });
    section = cleanText(htmlToText(match[1] ?? "")).slice(0, 200) || null;
    from = match.index;
  }
  blocks.push({ page: null, section, text: htmlToText(html.slice(from)) });
  return blocks;
}

/** CSV rows grouped into chunks, each starting with the header row and named by its rows. */
async function csvChunks(text: string): Promise<TextBlock[]> {
  const { default: Papa } = await import("papaparse");
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: "greedy" });
  const rows = parsed.data;
  if (rows.length === 0) return [];
  const [header, ...body] = rows;
  const headerLine = cleanText(Papa.unparse([header ?? []]));
  const chunks: TextBlock[] = [];
  let lines: string[] = [];
  let first = 1;
  let length = headerLine.length;
  const flush = (last: number) => {
    if (lines.length === 0) return;
    const rowsName = first === last ? `Row ${first}` : `Rows ${first}–${last}`;
    chunks.push({ page: null, section: rowsName, text: [headerLine, ...lines].join("\n") });
    lines = [];
    length = headerLine.length;
    first = last + 1;
  };
  body.forEach((row, i) => {
    const line = cleanText(Papa.unparse([row])).slice(0, CHUNK_MAX);
    if (lines.length > 0 && length + 1 + line.length > CHUNK_MAX) flush(i);
    lines.push(line);
    length += 1 + line.length;
    if (length >= CHUNK_MIN) flush(i + 1);
  });
  flush(body.length);
  if (chunks.length === 0 && headerLine.length > 0) {
    chunks.push({ page: null, section: "Header", text: headerLine });
  }
  return chunks;
}
