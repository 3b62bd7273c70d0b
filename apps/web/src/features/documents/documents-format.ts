import {
  DOCUMENT_KIND_LABELS,
  type TDocument,
  type TDocumentChunk,
  type TSearchMode,
} from "@cohort/contracts";
import { formatCount } from "../../lib/format/numbers";

/**
 * Sizes as the server counts them (DOCUMENT_MAX_MB and the quotas are in 1,024-based
 * megabytes), written by Intl like every other figure of the app (decision 032).
 */
const UNITS = [
  { unit: "gigabyte", bytes: 1024 ** 3 },
  { unit: "megabyte", bytes: 1024 ** 2 },
  { unit: "kilobyte", bytes: 1024 },
] as const;

const unitFormats = new Map<string, Intl.NumberFormat>();
function unitFormat(unit: string): Intl.NumberFormat {
  let format = unitFormats.get(unit);
  if (!format) {
    format = new Intl.NumberFormat("en-US", {
      style: "unit",
      unit,
      unitDisplay: "short",
      maximumFractionDigits: 1,
    });
    unitFormats.set(unit, format);
  }
  return format;
}

/** "512 bytes", "1.5 kB", "20 MB", "2 GB". */
export function formatBytes(bytes: number): string {
  for (const { unit, bytes: size } of UNITS) {
    if (bytes >= size) return unitFormat(unit).format(bytes / size);
  }
  return formatCount(bytes, "byte");
}

/** A chunk's place in its document: "Page 3 · Methods", "Section Intro", or "Part 4". */
export function passageLocation(
  chunk: Pick<TDocumentChunk, "page" | "section"> & { ordinal?: number },
): string {
  const parts: string[] = [];
  if (chunk.page !== null) parts.push(`Page ${chunk.page}`);
  if (chunk.section) parts.push(parts.length === 0 ? `Section ${chunk.section}` : chunk.section);
  if (parts.length === 0 && chunk.ordinal !== undefined) parts.push(`Part ${chunk.ordinal + 1}`);
  return parts.join(" · ");
}

/** "PDF", "1.2 MB", "3 pages": what the list and the viewer say about a file. */
export function documentFacts(
  document: Pick<TDocument, "kind" | "size_bytes" | "pages">,
): string[] {
  const facts = [DOCUMENT_KIND_LABELS[document.kind], formatBytes(document.size_bytes)];
  if (document.pages !== null) facts.push(formatCount(document.pages, "page"));
  return facts;
}

/** Says what the search does, as the API reports it: keywords only, or keywords and vectors. */
export function searchModeText(mode: TSearchMode, embeddingModel?: string | null): string {
  if (mode === "keyword") return "Keyword search";
  return embeddingModel
    ? `Hybrid search (keywords + embeddings: ${embeddingModel})`
    : "Hybrid search (keywords + embeddings)";
}
