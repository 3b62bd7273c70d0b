import { AlignmentType, Document, HeadingLevel, Packer, Paragraph } from "docx";
import PDFDocument from "pdfkit";

/**
 * Documents the tests make themselves (issue 13: no binary fixtures in the repository), for
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
