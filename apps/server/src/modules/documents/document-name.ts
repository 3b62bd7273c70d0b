import path from "node:path";
import { DOCUMENT_NAME_MAX } from "@cohort/contracts";

/**
 * The name as shown: its last path part, without control characters, at most 255 long. Bidi
 * controls (U+202A–U+202E, U+2066–U+2069, U+200E/F) go too: `invoice\u202Efdp.exe` would
 * read as "invoiceexe.pdf" (decision 051).
 */
export function displayName(filename: string | undefined): string {
  const base = path.basename((filename ?? "").replaceAll("\\", "/"));
  const clean = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001f\u007f\uE000\uE001\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, "")
    .trim();
  return (clean || "document").slice(0, DOCUMENT_NAME_MAX);
}
