import { type Block, type Inline, parseMarkdown } from "@cohort/contracts";
import PDFDocument from "pdfkit";
import { breakLongRuns } from "./break-long-runs";
import { monoCanDraw, type PdfFonts, pdfFonts } from "./pdf-fonts";

const MARGIN = 56;
const BODY_SIZE = 10.5;
const CODE_SIZE = 9;
const HEADING_SIZES = [20, 15, 13, 11.5, 11, 11] as const;
const INK = "#1f2328";
const MUTED = "#57606a";
const CODE_BACKGROUND = "#eff1f3";
const TABLE_HEAD = "#e6e9ec";
const INDENT = 16;
/**
 * The Markdown read into a PDF at most (a 5 MB import's is longer): beyond it the PDF ends
 * with the truncation note, as at the page cap. About 500 pages of prose.
 */
export const PDF_MAX_MARKDOWN_CHARS = 1_500_000;
/** A paragraph is drawn in pieces of about this many characters, the page cap checked between. */
const PIECE_CHARS = 2000;
/** A table is drawn in batches of rows, the page cap checked between. */
const TABLE_ROWS_PER_BATCH = 40;

export interface PdfLimits {
  /** No new block, code line, paragraph piece or table batch starts past this page. */
  maxPages: number;
}

/** The tallest a picture is drawn, in points (a third of an A4 page or so). */
const PICTURE_MAX_HEIGHT = 300;

/**
 * Pictures the Markdown shows, by the path it shows them at (PNG or JPEG bytes: what pdfkit
 * draws): images a model made in the session (decision 064), embedded in the PDF.
 */
export type PdfPictures = ReadonlyMap<string, Uint8Array>;

/** Thrown by the writer when the page cap is reached; the document then ends with a note. */
class PageCapReached extends Error {}

interface Segment {
  text: string;
  font: string;
  link?: string;
  /** Inline code: monospace looks larger than the text around it at the same size. */
  mono?: boolean;
}

/**
 * Draws a Markdown document (a session export) as a PDF: headings, paragraphs with bold,
 * italic, code and links, lists, quotes, code blocks in a monospace font on a grey
 * background, tables as tables, rules, and page numbers. Long lines wrap (a word wider than
 * the page is broken), so no text is cut off. A document longer than `limits.maxPages` pages
 * or PDF_MAX_MARKDOWN_CHARS characters stops there with a note that says so (decision 050).
 * The caller pipes the returned stream; it is ended. Runs in the PDF worker
 * (render-pdf-worker.ts), never on the server's thread.
 */
export function renderMarkdownPdf(
  markdown: string,
  title: string,
  limits: PdfLimits,
  pictures: PdfPictures = new Map(),
): PDFKit.PDFDocument {
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    bufferPages: true,
    info: { Title: title, Creator: "Cohort" },
  });
  const fonts = pdfFonts();
  const pdf = new PdfWriter(doc, fonts, limits.maxPages, pictures);
  const cut = markdown.length > PDF_MAX_MARKDOWN_CHARS;
  let truncated = cut;
  try {
    pdf.blocks(parseMarkdown(cut ? cutAtLine(markdown, PDF_MAX_MARKDOWN_CHARS) : markdown), 0);
  } catch (error) {
    if (!(error instanceof PageCapReached)) throw error;
    truncated = true;
  }
  if (truncated) pdf.truncationNote(limits.maxPages);
  pdf.pageNumbers();
  doc.end();
  return doc;
}

/** The text up to `max` characters, ended at its last line break when there is one. */
function cutAtLine(text: string, max: number): string {
  const end = text.lastIndexOf("\n", max);
  return text.slice(0, end > 0 ? end : max);
}

/** Pieces of about PIECE_CHARS characters, cut after a line break or space where there is one. */
function pieces(text: string): string[] {
  if (text.length <= PIECE_CHARS) return [text];
  const parts: string[] = [];
  let from = 0;
  while (text.length - from > PIECE_CHARS) {
    const window = text.slice(from + PIECE_CHARS / 2, from + PIECE_CHARS);
    const at = Math.max(window.lastIndexOf("\n"), window.lastIndexOf(" "));
    const end = at >= 0 ? from + PIECE_CHARS / 2 + at + 1 : from + PIECE_CHARS;
    parts.push(text.slice(from, end));
    from = end;
  }
  parts.push(text.slice(from));
  return parts;
}

class PdfWriter {
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly fonts: PdfFonts,
    private readonly maxPages: number,
    private readonly pictures: PdfPictures,
  ) {}

  /** A picture on its own lines, scaled to the column and PICTURE_MAX_HEIGHT. */
  private picture(bytes: Uint8Array, indent: number): void {
    const { doc } = this;
    this.checkPages();
    if (doc.y + PICTURE_MAX_HEIGHT > this.bottom) doc.addPage();
    doc.x = this.left + indent;
    doc.image(Buffer.from(bytes), { fit: [this.width - indent, PICTURE_MAX_HEIGHT] });
    doc.x = this.left;
  }

  /** Stops the document once it has gone past the page cap. */
  private checkPages(): void {
    if (this.doc.bufferedPageRange().count > this.maxPages) throw new PageCapReached();
  }

  /** The closing note of a truncated document, in muted italics. */
  truncationNote(maxPages: number): void {
    const { doc, fonts } = this;
    this.room(BODY_SIZE * 4);
    doc.x = this.left;
    doc.moveDown(1);
    doc
      .font(fonts.italic)
      .fontSize(BODY_SIZE)
      .fillColor(MUTED)
      .text(
        `Truncated: this PDF shows the session's first ${maxPages} pages at most. Download the session as Markdown or JSON for all of it.`,
        this.left,
        doc.y,
        { width: this.width },
      );
    doc.fillColor(INK);
  }

  private get left(): number {
    return this.doc.page.margins.left;
  }

  private get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** A new page unless `height` more points fit on this one. */
  private room(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  blocks(blocks: readonly Block[], indent: number): void {
    for (const block of blocks) {
      this.checkPages();
      this.block(block, indent);
    }
  }

  private block(block: Block, indent: number): void {
    const { doc } = this;
    switch (block.type) {
      case "heading": {
        const size = HEADING_SIZES[block.level - 1] ?? BODY_SIZE;
        this.room(size * 3);
        doc.moveDown(block.level <= 2 ? 0.6 : 0.3);
        this.inline(block.children, indent, size, { bold: true });
        doc.moveDown(0.3);
        return;
      }
      case "paragraph": {
        const pictures = block.children.flatMap((node) => {
          const bytes = node.type === "image" ? this.pictures.get(node.src) : undefined;
          return bytes ? [{ node, bytes }] : [];
        });
        const text = block.children.filter((node) => !pictures.some((p) => p.node === node));
        if (text.some((node) => node.type !== "text" || node.text.trim() !== "")) {
          this.inline(text, indent, BODY_SIZE, {});
        }
        for (const { bytes } of pictures) this.picture(bytes, indent);
        doc.moveDown(0.5);
        return;
      }
      case "code":
        this.code(block.text, indent);
        return;
      case "quote":
        doc.fillColor(MUTED);
        this.blocks(block.children, indent + INDENT);
        doc.fillColor(INK);
        return;
      case "list":
        this.list(block, indent);
        return;
      case "table":
        this.table(block, indent);
        return;
      case "rule": {
        this.room(12);
        const y = doc.y + 4;
        doc
          .moveTo(this.left + indent, y)
          .lineTo(this.left + this.width, y)
          .lineWidth(0.5)
          .strokeColor("#d0d7de")
          .stroke();
        doc.y = y + 8;
        return;
      }
    }
  }

  private inline(
    nodes: readonly Inline[],
    indent: number,
    size: number,
    style: { bold?: boolean; italic?: boolean },
    prefix?: string,
  ): void {
    const segments = this.segments(nodes, style);
    if (prefix !== undefined) segments.unshift({ text: prefix, font: this.fonts.regular });
    const drawn = segments.filter((s) => s.text.length > 0);
    if (drawn.length === 0) return;
    const { doc } = this;
    this.room(size * 1.4);
    doc.x = this.left + indent;
    doc.fontSize(size);
    const parts = drawn.flatMap((segment) =>
      pieces(breakLongRuns(segment.text)).map((text) => ({ ...segment, text })),
    );
    parts.forEach((part, i) => {
      if (i > 0 && doc.bufferedPageRange().count > this.maxPages) {
        // Past the cap inside a paragraph: end its line, then stop the document.
        doc.text(" …", { width: this.width - indent, continued: false });
        doc.x = this.left;
        throw new PageCapReached();
      }
      doc.font(part.font).fontSize(part.mono ? size * 0.88 : size);
      const options: PDFKit.Mixins.TextOptions = {
        width: this.width - indent,
        continued: i < parts.length - 1,
      };
      if (part.link) {
        options.link = part.link;
        options.underline = true;
      }
      if (i === 0) doc.text(part.text, this.left + indent, doc.y, options);
      else doc.text(part.text, options);
    });
    doc.x = this.left;
  }

  private segments(
    nodes: readonly Inline[],
    style: { bold?: boolean; italic?: boolean; link?: string },
  ): Segment[] {
    const { fonts } = this;
    const font = style.bold
      ? style.italic
        ? fonts.boldItalic
        : fonts.bold
      : style.italic
        ? fonts.italic
        : fonts.regular;
    const link = style.link === undefined ? {} : { link: style.link };
    return nodes.flatMap((node): Segment[] => {
      switch (node.type) {
        case "text":
          return [{ text: node.text, font, ...link }];
        case "strong":
          return this.segments(node.children, { ...style, bold: true });
        case "em":
          return this.segments(node.children, { ...style, italic: true });
        case "del":
          return this.segments(node.children, style);
        case "code":
          return monoCanDraw(node.text)
            ? [{ text: node.text, font: fonts.mono, mono: true, ...link }]
            : [{ text: node.text, font, ...link }];
        case "break":
          return [{ text: "\n", font }];
        case "link":
          return this.segments(node.children, { ...style, link: node.href });
        default:
          return [{ text: `[image: ${node.alt || node.src}]`, font: fonts.italic }];
      }
    });
  }

  /** A code block: monospace lines on a grey band, page by page; long lines wrap. */
  private code(text: string, indent: number): void {
    const { doc, fonts } = this;
    const x = this.left + indent;
    const width = this.width - indent;
    const pad = 6;
    const lines = breakLongRuns(text.replace(/\n$/, "").replaceAll("\t", "    ")).split("\n");
    doc.fontSize(CODE_SIZE);
    doc.y += 2;
    for (const [i, raw] of lines.entries()) {
      this.checkPages();
      const line = raw.length === 0 ? " " : raw;
      doc.font(monoCanDraw(line) ? fonts.mono : fonts.regular);
      const options = { width: width - 2 * pad, lineGap: 1 };
      const height = doc.heightOfString(line, options);
      const top = i === 0 ? pad : 0;
      const below = i === lines.length - 1 ? pad : 0;
      if (doc.y + top + height + below > this.bottom) doc.addPage();
      const y = doc.y;
      // A little into the next line's band: no hairline seams between the lines' bands.
      doc
        .rect(x, y, width, top + height + below + (below > 0 ? 0 : 0.75))
        .fill(CODE_BACKGROUND)
        .fillColor(INK);
      doc.text(line, x + pad, y + top, options);
      doc.y = y + top + height + below;
    }
    doc.x = this.left;
    doc.moveDown(0.6);
  }

  private list(block: Extract<Block, { type: "list" }>, indent: number): void {
    const { doc } = this;
    block.items.forEach((item, i) => {
      const marker = block.ordered ? `${block.start + i}. ` : "• ";
      const [first, ...rest] = item;
      if (first?.type === "paragraph") {
        this.inline(first.children, indent + INDENT, BODY_SIZE, {}, marker);
        if (!block.tight) doc.moveDown(0.3);
        this.blocks(rest, indent + INDENT);
      } else {
        this.inline([{ type: "text", text: marker.trim() }], indent + INDENT, BODY_SIZE, {});
        this.blocks(item, indent + INDENT);
      }
    });
    doc.moveDown(0.4);
  }

  private table(block: Extract<Block, { type: "table" }>, indent: number): void {
    const { doc, fonts } = this;
    const plain = (cell: Inline[]) => breakLongRuns(inlineText(cell));
    const columns = Math.max(block.head.length, ...block.rows.map((r) => r.length), 1);
    const fill = (cells: string[]) => Array.from({ length: columns }, (_, i) => cells[i] ?? "");
    const align = (i: number) => block.align[i] ?? "left";
    const head = fill(block.head.map(plain)).map((text) => ({
      text,
      type: "TH" as const,
      backgroundColor: TABLE_HEAD,
      font: { src: fonts.bold },
    }));
    this.room(40);
    for (let from = 0; from === 0 || from < block.rows.length; from += TABLE_ROWS_PER_BATCH) {
      if (from > 0) this.checkPages();
      const rows = block.rows
        .slice(from, from + TABLE_ROWS_PER_BATCH)
        .map((r) => fill(r.map(plain)));
      doc.fontSize(9).font(fonts.regular).fillColor(INK);
      doc.table({
        position: { x: this.left + indent, y: doc.y },
        maxWidth: this.width - indent,
        defaultStyle: { border: 0.5, borderColor: "#c8ced4", padding: 4 },
        columnStyles: (i) => ({ align: { x: align(i), y: "top" } }),
        data: from === 0 ? [head, ...rows] : rows,
      });
    }
    doc.x = this.left;
    doc.moveDown(0.6);
  }

  pageNumbers(): void {
    const { doc, fonts } = this;
    const range = doc.bufferedPageRange();
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      const { bottom } = doc.page.margins;
      doc.page.margins.bottom = 0;
      doc
        .font(fonts.regular)
        .fontSize(8)
        .fillColor(MUTED)
        .text(`Page ${i + 1} of ${range.count}`, this.left, doc.page.height - MARGIN / 2 - 4, {
          width: this.width,
          align: "center",
          lineBreak: false,
        });
      doc.page.margins.bottom = bottom;
    }
  }
}

/** The text of inline nodes without their formatting (table cells). */
function inlineText(nodes: readonly Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
        case "code":
          return node.text;
        case "break":
          return "\n";
        case "image":
          return `[image: ${node.alt || node.src}]`;
        default:
          return inlineText(node.children);
      }
    })
    .join("");
}
