import { createDeflate } from "node:zlib";
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph } from "docx";
import PDFDocument from "pdfkit";

/**
 * Documents the tests make themselves (no binary fixtures in the repository), for
 * the server's integration tests and the browser tests alike.
 */

/** A PDF with one page per entry: a text, or paragraphs with a blank line between them. */
export function makePdf(
  pages: readonly (string | readonly string[])[],
  options: { title?: string; size?: string; margin?: number } = {},
): Promise<Buffer> {
  const doc = new PDFDocument({
    autoFirstPage: false,
    ...(options.size ? { size: options.size } : {}),
    ...(options.margin !== undefined ? { margin: options.margin } : {}),
  });
  const parts: Buffer[] = [];
  doc.on("data", (part: Buffer) => parts.push(part));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(parts))));
  pages.forEach((page, index) => {
    doc.addPage();
    if (index === 0 && options.title) doc.fontSize(18).text(options.title).fontSize(11);
    const paragraphs = typeof page === "string" ? [page] : page;
    paragraphs.forEach((text, at) => {
      if (at > 0) doc.moveDown();
      doc.text(text);
    });
  });
  doc.end();
  return done;
}

/**
 * A DOCX with a heading before each section's paragraphs; with a title, the title is the
 * top heading and the sections' headings sit under it.
 */
export function makeDocx(
  sections: readonly { heading: string; paragraphs: readonly string[] }[],
  title?: string,
): Promise<Buffer> {
  const level = title ? HeadingLevel.HEADING_2 : HeadingLevel.HEADING_1;
  const doc = new Document({
    sections: [
      {
        children: [
          ...(title ? [new Paragraph({ text: title, heading: HeadingLevel.HEADING_1 })] : []),
          ...sections.flatMap((section) => [
            new Paragraph({ text: section.heading, heading: level }),
            ...section.paragraphs.map(
              (text) => new Paragraph({ text, alignment: AlignmentType.LEFT }),
            ),
          ]),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/**
 * A one-page PDF written by hand whose page content is `text` shown in Helvetica, followed
 * by `repeat` more copies of `filler` in the same content stream, Flate-compressed. Repeated
 * text compresses about 1000:1, so a 1 MB file can hold a stream that inflates to 1 GB
 * (with `filler` "\0": zeros, which a PDF reader skips as white space). Deflated in pieces:
 * the inflated stream is never held in memory.
 */
export async function makeInflatingPdf(options: {
  text: string;
  filler: string;
  repeat: number;
}): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (part: Buffer) => parts.push(part));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on("end", resolve);
    deflate.on("error", reject);
  });
  const escaped = options.text.replace(/[\\()]/g, (c) => `\\${c}`);
  deflate.write(`BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET\n`);
  const perPiece = Math.max(1, Math.floor(65_536 / options.filler.length));
  const piece = Buffer.from(options.filler.repeat(perPiece));
  let left = options.repeat;
  while (left > 0) {
    const count = Math.min(left, perPiece);
    const chunk = count === perPiece ? piece : piece.subarray(0, count * options.filler.length);
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once("drain", resolve));
    left -= count;
  }
  deflate.end();
  await done;
  const stream = Buffer.concat(parts);
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    null,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n")];
  let offset = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const part =
      body === null
        ? Buffer.concat([
            Buffer.from(
              `${i + 1} 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`,
            ),
            stream,
            Buffer.from("\nendstream\nendobj\n"),
          ])
        : Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`);
    chunks.push(part);
    offset += part.length;
  });
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((at) => `${String(at).padStart(10, "0")} 00000 n `),
    "trailer",
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    "startxref",
    String(offset),
    "%%EOF",
    "",
  ].join("\n");
  chunks.push(Buffer.from(xref));
  return Buffer.concat(chunks);
}
