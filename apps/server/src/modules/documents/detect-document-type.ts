import path from "node:path";
import type { TDocumentKind } from "@cohort/contracts";

export type Detection =
  | { ok: true; kind: TDocumentKind; mediaType: string }
  | { ok: false; reason: string };

export const SUPPORTED_TYPES_TEXT =
  "Cohort reads PDF, Word (DOCX), text, Markdown, CSV, JSON and source code files.";

const MARKDOWN = new Set([".md", ".markdown", ".mdown", ".mkd", ".mdx"]);
const CSV = new Set([".csv", ".tsv"]);
const JSON_EXT = new Set([".json", ".jsonl", ".ndjson", ".geojson"]);
// Markup (HTML, SVG, XML) counts as source code: stored and shown as text, never rendered.
const CODE = new Set(
  (
    ".ts .tsx .js .jsx .mjs .cjs .py .rb .go .rs .java .kt .kts .c .h .cc .cpp .hpp .cs .php .swift " +
    ".scala .sh .bash .zsh .ps1 .sql .html .htm .css .scss .less .xml .svg .yaml .yml .toml .ini " +
    ".vue .svelte .lua .r .pl .dart .ex .exs .erl .hs .clj .m .mm .groovy .gradle .tf .proto .graphql"
  ).split(" "),
);

let fileType: Promise<typeof import("file-type")> | undefined;

/**
 * file-type (an ES module, with its parsers' packages) loads at the first file checked, not
 * at start-up (decision 085); concurrent first uploads share the one load.
 */
function loadFileType(): Promise<typeof import("file-type")> {
  fileType ??= import("file-type");
  return fileType;
}

/** Text formats file-type recognises by their first bytes; they are read as text. */
const TEXTUAL_MIME = /^(text\/|application\/(xml|json)|image\/svg\+xml)/;

/**
 * Decides a file's kind from its content (decision 036): binary formats by their signature
 * (file-type), anything else only if it is valid UTF-8 without NUL characters. The name's
 * extension never overrides the content; it only chooses among the text kinds.
 */
export async function detectDocumentType(input: {
  /** The file's first bytes (at least 64 KB when the file is that long). */
  head: Buffer;
  /** The whole file decoded as UTF-8 without error and contains no NUL. */
  isUtf8Text: boolean;
  name: string;
}): Promise<Detection> {
  const found = await (await loadFileType()).fileTypeFromBuffer(input.head);
  if (found?.mime === "application/pdf") {
    return { ok: true, kind: "pdf", mediaType: found.mime };
  }
  if (found?.ext === "docx") return { ok: true, kind: "docx", mediaType: found.mime };
  if (found && !(TEXTUAL_MIME.test(found.mime) && input.isUtf8Text)) {
    return {
      ok: false,
      reason: `This file is ${found.ext.toUpperCase()} (${found.mime}), which is not supported. ${SUPPORTED_TYPES_TEXT}`,
    };
  }
  if (!input.isUtf8Text) {
    return {
      ok: false,
      reason: `This file is binary (or text that is not UTF-8) and not a type Cohort reads. ${SUPPORTED_TYPES_TEXT}`,
    };
  }
  const extension = path.extname(input.name).toLowerCase();
  if (MARKDOWN.has(extension)) return { ok: true, kind: "markdown", mediaType: "text/markdown" };
  if (CSV.has(extension)) return { ok: true, kind: "csv", mediaType: "text/csv" };
  if (JSON_EXT.has(extension)) return { ok: true, kind: "json", mediaType: "application/json" };
  if (CODE.has(extension)) return { ok: true, kind: "code", mediaType: "text/plain" };
  return { ok: true, kind: "text", mediaType: "text/plain" };
}
