import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** The font names the PDF export draws with. */
export interface PdfFonts {
  regular: string;
  bold: string;
  italic: string;
  boldItalic: string;
  mono: string;
  monoBold: string;
}

/** PDF's built-in fonts: always there, but only Western European letters (WinAnsi). */
const BUILT_IN: PdfFonts = {
  regular: "Helvetica",
  bold: "Helvetica-Bold",
  italic: "Helvetica-Oblique",
  boldItalic: "Helvetica-BoldOblique",
  mono: "Courier",
  monoBold: "Courier-Bold",
};

const LIBERATION = {
  regular: "LiberationSans-Regular.ttf",
  bold: "LiberationSans-Bold.ttf",
  italic: "LiberationSans-Italic.ttf",
  boldItalic: "LiberationSans-BoldItalic.ttf",
} as const;

let found: Record<keyof typeof LIBERATION, string> | null | undefined;

/**
 * Liberation Sans, which pdfjs-dist (already a dependency, for reading uploaded PDFs) ships:
 * it covers Latin, Greek and Cyrillic, so prose in those scripts is not lost as it would be
 * with the built-in fonts. Null when the files are not where the package keeps them.
 */
function liberationFiles(): Record<keyof typeof LIBERATION, string> | null {
  if (found !== undefined) return found;
  try {
    const dir = path.join(
      path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")),
      "standard_fonts",
    );
    const files = Object.fromEntries(
      Object.entries(LIBERATION).map(([key, file]) => [key, path.join(dir, file)]),
    ) as Record<keyof typeof LIBERATION, string>;
    found = Object.values(files).every((file) => existsSync(file)) ? files : null;
  } catch {
    found = null;
  }
  return found;
}

/**
 * The export's fonts for a document. The Liberation files are named by their paths, not
 * registered under names: pdfkit's tables restore the font after each cell by its source,
 * which for a registered name is the file, and a file not opened by its path is read and
 * parsed again every time (a 400-row table took 15 s; decision 050).
 */
export function pdfFonts(): PdfFonts {
  const files = liberationFiles();
  if (!files) return BUILT_IN;
  return {
    regular: files.regular,
    bold: files.bold,
    italic: files.italic,
    boldItalic: files.boldItalic,
    mono: BUILT_IN.mono,
    monoBold: BUILT_IN.monoBold,
  };
}

/**
 * Characters the built-in Courier can draw (WinAnsi). A code line with any other character
 * is drawn in the sans font instead, so its text is never lost.
 */
const WIN_ANSI = /^[\t\n\r\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]*$/;

export function monoCanDraw(text: string): boolean {
  return WIN_ANSI.test(text);
}
