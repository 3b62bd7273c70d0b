import { parentPort, workerData } from "node:worker_threads";
import { type PdfLimits, renderMarkdownPdf } from "./render-markdown-pdf";

/**
 * The PDF export's thread (decision 050): one per export, started by render-pdf.ts with a
 * heap limit and terminated when it takes too long. It draws the Markdown it is given,
 * answers with the finished file and exits, so pdfkit never runs on the server's thread.
 */
if (!parentPort) throw new Error("render-pdf-worker runs as a worker thread only");
const port = parentPort;
const { markdown, title, limits, pictures } = workerData as {
  markdown: string;
  title: string;
  limits: PdfLimits;
  /** The session's pictures by path (decision 064). */
  pictures?: [string, Uint8Array][];
};

const doc = renderMarkdownPdf(markdown, title, limits, new Map(pictures ?? []));
const parts: Buffer[] = [];
doc.on("data", (part: Buffer) => parts.push(part));
doc.on("end", () => {
  // A buffer of its own (never a slice of Node's shared pool), so it can be transferred.
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  port.postMessage(bytes, [bytes.buffer]);
  port.close();
});
